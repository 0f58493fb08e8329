export type { AgentSpec } from './agent.js'
import type { AgentSpec } from './agent.js'
import { claudeCode } from './claude-code.js'
import { codex } from './codex.js'
import { gemini } from './gemini.js'
import { qwen } from './qwen.js'
import { copilot } from './copilot.js'
import { opencode } from './opencode.js'

/** The agents the suite runs, in order (the two that need no Node 22 first). */
export const AGENTS: readonly AgentSpec[] = [claudeCode, codex, gemini, qwen, copilot, opencode]
