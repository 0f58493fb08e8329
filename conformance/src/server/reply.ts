/**
 * What the scripted model answers, decided from the request alone (the same rules for all four APIs), and the
 * exact usage it reports. Every wire module turns a request into a `TurnView`, asks `decide()` for a `Reply`,
 * then encodes that reply in its own API's shape.
 *
 * The prompts the harness sends carry markers: `[[tool]]` asks for one shell call listing the directory,
 * `[[subagent]]` for one call of the agent's subagent tool, `[[stall]]` for a stream that stops mid-answer and
 * never ends (the harness then kills the agent). A turn whose last message is a tool result, and any prompt
 * without a marker, gets a plain text answer.
 */

/** One tool the request offers: its name and its JSON-schema parameters (when it has any). */
export interface OfferedTool {
  readonly name: string
  readonly parameters: unknown
  /** The group a Responses `namespace` tool puts it in (Codex's `multi_agent_v1`); echoed in the call. */
  readonly namespace?: string
  /** Its description, where the agent lists what a free-text argument accepts (OpenCode's agent types). */
  readonly description?: string
}

/** What the wire module extracted from a request. */
export interface TurnView {
  /** The text of the last user message (all its text parts joined); '' when the last message is a tool result. */
  readonly lastUserText: string
  /** The last message carries a tool's result: the model now answers in text. */
  readonly afterToolResult: boolean
  readonly tools: readonly OfferedTool[]
  /** The request asks for JSON matching this schema (Gemini's router and next-speaker checks): answer it. */
  readonly jsonSchema?: unknown
}

export type Reply =
  | { readonly kind: 'text'; readonly text: string }
  | {
      readonly kind: 'tool'
      readonly text: string
      readonly name: string
      readonly args: Record<string, unknown>
      readonly namespace?: string
    }
  | { readonly kind: 'stall'; readonly text: string }

/** Names of shell tools across the six agents, in preference order. */
const SHELL_TOOLS = [
  'Bash',
  'exec_command',
  'shell',
  'run_shell_command',
  'bash',
  'run_in_terminal',
  'powershell',
]
/** Names of subagent tools (Claude Code's `Agent`/`Task`, Qwen's `task`/`agent`, Gemini's and Copilot's). */
const SUBAGENT_TOOLS = ['Agent', 'Task', 'task', 'agent', 'invoke_agent', 'delegate_to_agent', 'spawn_agent']

/** The answer text of request `seq`: unique, so `show` can be checked for it. */
export function answerText(seq: number): string {
  return `Conformance answer ${seq}: the directory holds notes.txt and hello.py.`
}

function properties(schema: unknown): Record<string, { type?: unknown; items?: unknown }> {
  if (typeof schema !== 'object' || schema === null) return {}
  const props = (schema as { properties?: unknown }).properties
  return typeof props === 'object' && props !== null ? (props as Record<string, { type?: unknown }>) : {}
}

function shellArgs(tool: OfferedTool): Record<string, unknown> {
  const props = properties(tool.parameters)
  const key = 'cmd' in props ? 'cmd' : 'command' in props ? 'command' : 'cmd'
  const isArray = props[key]?.type === 'array'
  const args: Record<string, unknown> = { [key]: isArray ? ['ls'] : 'ls' }
  if ('description' in props) args['description'] = 'List the files'
  if ('is_background' in props) args['is_background'] = false
  return args
}

/** The general subagent each agent names differently: Claude Code and Copilot `general-purpose`, OpenCode `general`. */
function agentType(tool: OfferedTool): string {
  const text = tool.description ?? ''
  return (
    ['general-purpose', 'general'].find((name) => new RegExp(`\\b${name}\\b`).test(text)) ?? 'general-purpose'
  )
}

function subagentArgs(tool: OfferedTool): Record<string, unknown> {
  const props = properties(tool.parameters)
  const args: Record<string, unknown> = {}
  const task = 'CONF-SUBTASK: List the files in this directory and say what they are.'
  for (const key of ['description', 'prompt', 'task', 'query', 'objective', 'message'])
    if (key in props) args[key] = task
  if ('description' in props) args['description'] = 'List the files'
  if ('subagent_type' in props) args['subagent_type'] = agentType(tool)
  if ('agent_type' in props) args['agent_type'] = 'general-purpose'
  // Gemini CLI's invoke_agent names one of its built-in subagents.
  if ('agent_name' in props) args['agent_name'] = 'generalist'
  if ('mode' in props) args['mode'] = 'sync'
  // Whatever else the schema requires (Copilot's task wants a `name`) gets a value of its type.
  const required = (tool.parameters as { required?: unknown } | undefined)?.required
  for (const key of Array.isArray(required) ? (required as unknown[]) : []) {
    if (typeof key === 'string' && !(key in args)) args[key] = fillSchema(props[key], 'conformance-subtask')
  }
  if (Object.keys(args).length === 0) args['prompt'] = task
  return args
}

/** A value matching a (simple) JSON schema: enums prefer `user` (Gemini's next-speaker check then stops). */
export function fillSchema(schema: unknown, text = 'conformance'): unknown {
  if (typeof schema !== 'object' || schema === null) return text
  const s = schema as {
    type?: unknown
    enum?: unknown[]
    minimum?: number
    maximum?: number
    items?: unknown
  }
  const type = typeof s.type === 'string' ? s.type.toLowerCase() : undefined
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum.includes('user') ? 'user' : s.enum[0]
  if (type === 'object' || (type === undefined && 'properties' in s)) {
    const out: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(properties(s))) out[key] = fillSchema(value, text)
    return out
  }
  if (type === 'integer' || type === 'number') return Math.max(s.minimum ?? 1, Math.min(s.maximum ?? 50, 50))
  if (type === 'boolean') return false
  if (type === 'array') return []
  return text
}

/** The reply to request `seq`. */
export function decide(view: TurnView, seq: number): Reply {
  if (view.jsonSchema !== undefined)
    return { kind: 'text', text: JSON.stringify(fillSchema(view.jsonSchema)) }
  if (view.afterToolResult) return { kind: 'text', text: answerText(seq) }
  const text = view.lastUserText
  if (text.includes('[[stall]]'))
    return { kind: 'stall', text: 'Once upon a time, in a directory far away, ' }
  const pick = (names: readonly string[]): OfferedTool | undefined => {
    for (const name of names) {
      const tool = view.tools.find((t) => t.name === name)
      if (tool !== undefined) return tool
    }
    return undefined
  }
  if (text.includes('[[subagent]]')) {
    const tool = pick(SUBAGENT_TOOLS)
    if (tool !== undefined)
      return {
        kind: 'tool',
        text: 'I will ask a subagent.',
        name: tool.name,
        args: subagentArgs(tool),
        ...(tool.namespace === undefined ? {} : { namespace: tool.namespace }),
      }
  }
  if (text.includes('[[tool]]')) {
    const tool = pick(SHELL_TOOLS)
    if (tool !== undefined)
      return { kind: 'tool', text: 'Let me list the files.', name: tool.name, args: shellArgs(tool) }
  }
  // A subagent that must end by calling a tool (Gemini CLI's `complete_task`) gets its answer through it.
  const complete = view.tools.find((t) => t.name === 'complete_task')
  if (complete !== undefined) {
    const args = fillSchema(complete.parameters, answerText(seq))
    return { kind: 'tool', text: answerText(seq), name: complete.name, args: args as Record<string, unknown> }
  }
  return { kind: 'text', text: answerText(seq) }
}

/** The usage of request `seq` in API-neutral terms; each wire module writes it in its own fields. */
export interface Usage {
  /** Input not read from cache and not written to it (Anthropic's `input_tokens`). */
  readonly fresh: number
  readonly cacheRead: number
  /** Anthropic only (cache creation); 0 elsewhere. */
  readonly cacheWrite: number
  /** Output including reasoning. */
  readonly output: number
  /** Reasoning, part of `output` (0 for Anthropic, which reports none). */
  readonly reasoning: number
}

/**
 * Distinct figures per request, so a token tuple found in an agent's file names exactly one request: each
 * field grows by a different step from a different base, far from the small numbers agents write elsewhere.
 */
export function usageFor(seq: number, api: 'anthropic' | 'openai' | 'gemini'): Usage {
  return {
    fresh: 10_000 + 101 * seq,
    cacheRead: 2_000 + 13 * seq,
    cacheWrite: api === 'anthropic' ? 300 + 11 * seq : 0,
    output: 400 + 7 * seq,
    reasoning: api === 'anthropic' ? 0 : 30 + 3 * seq,
  }
}

/** The normalized figures our `usage --json` reports (input includes cache, output includes reasoning). */
export interface Normalized {
  readonly inputTokens: number
  readonly cacheReadInputTokens: number
  readonly cacheCreationInputTokens: number
  readonly outputTokens: number
  readonly reasoningOutputTokens: number
  readonly totalTokens: number
}

export function normalize(u: Usage): Normalized {
  const input = u.fresh + u.cacheRead + u.cacheWrite
  return {
    inputTokens: input,
    cacheReadInputTokens: u.cacheRead,
    cacheCreationInputTokens: u.cacheWrite,
    outputTokens: u.output,
    reasoningOutputTokens: u.reasoning,
    totalTokens: input + u.output,
  }
}
