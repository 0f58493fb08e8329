import { readFileSync } from 'node:fs'
import type { AgentSpec, Cumulative } from './agents/agent.js'
import type { AgentOutcome, ScenarioOutcome } from './drive.js'
import { expectation, ZERO, type Exclusion, type Match, type Totals } from './expect.js'
import type { LogEntry } from './server/server.js'
import { sessiontape, sessiontapeJson } from './sessiontape.js'

/**
 * Checks one agent's sessions with our own code, as a user would run it: `list <agent dir> --json` must name
 * every session file, `show --json` must read each with records and 0 problems, `show` must print each
 * scenario's prompts, tool calls and answers, and `usage --json` must leave 0 lines unread and equal the
 * expectation computed from the server's log (expect.ts).
 */

const TOKEN_FIELDS = [
  'inputTokens',
  'cacheReadInputTokens',
  'cacheCreationInputTokens',
  'outputTokens',
  'reasoningOutputTokens',
  'totalTokens',
] as const

export interface ScenarioCheck {
  readonly label: string
  readonly files: readonly string[]
  readonly listed: number
  readonly read: number
  readonly unreadLines: number
  readonly expected: Totals
  readonly ours: Totals
  readonly agentOwn?: Cumulative
  readonly matches: readonly Match[]
  readonly excluded: readonly Exclusion[]
  /** Why the row fails; empty = pass. */
  readonly failures: readonly string[]
  /** Agent exits that were not expected (a crash, a timeout), for the report. */
  readonly runNotes: readonly string[]
  /** Hosts the agent tried to reach besides our server, refused by the proxy sink (informational). */
  readonly refused: readonly string[]
  /** How long each agent command took, in ms. */
  readonly stepMs: readonly number[]
}

function strings(value: unknown, out: Set<string>): Set<string> {
  if (typeof value === 'string') out.add(value)
  else if (Array.isArray(value)) for (const v of value) strings(v, out)
  else if (typeof value === 'object' && value !== null) for (const v of Object.values(value)) strings(v, out)
  return out
}

function num(value: unknown): number {
  return typeof value === 'number' ? value : 0
}

function totalsOf(value: unknown): Totals {
  const t = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>
  const out: Record<string, number> = { requests: num(t['requests']) }
  for (const field of TOKEN_FIELDS) out[field] = num(t[field])
  return out as unknown as Totals
}

/**
 * The texts `show` must print for a scenario: its prompt markers, and each tool call and answer of the server's
 * that the agent wrote into its files (found in their raw bytes).
 */
function needles(outcome: ScenarioOutcome, entries: readonly LogEntry[], raw: string): string[] {
  const out = [...outcome.scenario.prompts]
  for (const entry of entries) {
    if (entry.purpose !== 'main' || entry.turn === 'side') continue
    if (entry.reply === 'tool' && entry.toolName !== undefined && raw.includes(`"${entry.toolName}"`)) {
      out.push(entry.toolName)
    }
    // Answers to our prompts and tool results that the agent wrote into its files; a side request (Qwen's
    // memory extraction) is not part of the conversation, though its text may sit in a telemetry line.
    const answer = `Conformance answer ${entry.seq}:`
    if (entry.reply === 'text' && raw.includes(answer)) out.push(answer)
  }
  return out
}

function runNotes(outcome: ScenarioOutcome): string[] {
  return outcome.runs.flatMap((run, i) => {
    const step = outcome.scenario.steps[i]
    if (run.timedOut) return [`step ${i + 1} timed out after ${run.ms} ms`]
    if (step?.kill === 'on-stall' && !run.killed)
      return [`step ${i + 1} was never stalled (exit ${run.code}): ${run.stderr.slice(-300)}`]
    if (step?.kill !== 'on-stall' && run.code !== 0)
      return [`step ${i + 1} exited ${run.code ?? run.signal}: ${run.stderr.slice(-300)}`]
    return []
  })
}

export async function checkAgent(
  spec: AgentSpec,
  outcome: AgentOutcome,
  entries: readonly LogEntry[],
): Promise<{ scenarios: ScenarioCheck[]; listProblem?: string }> {
  const list = await sessiontapeJson(['list', spec.dataDir(outcome.home)])
  const listed = strings(list.value, new Set())
  const listProblem =
    list.value === undefined ? `list exited ${list.result.code}: ${list.result.err.slice(0, 300)}` : undefined
  const scenarios: ScenarioCheck[] = []
  for (const scenarioOutcome of outcome.scenarios) {
    const own = entries.filter((e) => e.scenario === scenarioOutcome.label)
    const files = scenarioOutcome.files
    const exp = expectation(own, files)
    const failures: string[] = []
    const notes = runNotes(scenarioOutcome)
    if (files.length === 0) failures.push('the agent wrote no session file')
    if (scenarioOutcome.scenario.label === 'subagent' && !own.some((e) => e.tag === 'CONF-SUBTASK')) {
      failures.push('run: the subagent never asked the model anything (its tool call failed?)')
    }
    let read = 0
    let shown = ''
    for (const file of files) {
      const json = await sessiontapeJson(['show', file])
      const value = (json.value ?? {}) as { records?: unknown[]; problemCount?: number }
      const records = value.records?.length ?? 0
      const problems = value.problemCount ?? 0
      if (json.value !== undefined && records > 0 && problems === 0) read += 1
      else
        failures.push(
          `show ${shortName(file)}: ${records} records, ${problems} problems, exit ${json.result.code}`,
        )
      shown += (await sessiontape(['show', file])).out
    }
    const notListed = files.filter((f) => !listed.has(f))
    if (notListed.length > 0) failures.push(`not listed: ${notListed.map(shortName).join(', ')}`)
    const raw = files.map((f) => readFileSync(f, 'utf8')).join('\n')
    const missing = needles(scenarioOutcome, own, raw).filter((needle) => !shown.includes(needle))
    if (missing.length > 0) failures.push(`show does not print: ${missing.join(' | ')}`)
    let ours = ZERO
    let unreadLines = 0
    if (files.length > 0) {
      const usage = await sessiontapeJson(['usage', ...files])
      const value = (usage.value ?? {}) as {
        totals?: unknown
        linesNotRead?: { lines?: unknown }[]
        unreadable?: unknown[]
      }
      ours = totalsOf(value.totals)
      for (const entry of value.linesNotRead ?? [])
        unreadLines += Array.isArray(entry.lines) ? entry.lines.length : num(entry.lines)
      if (usage.value === undefined)
        failures.push(`usage exited ${usage.result.code}: ${usage.result.err.slice(0, 200)}`)
      if ((value.unreadable ?? []).length > 0)
        failures.push(`usage could not read ${(value.unreadable ?? []).length} file(s)`)
    }
    if (unreadLines > 0) failures.push(`${unreadLines} line(s) left unread`)
    const diff = TOKEN_FIELDS.filter((field) => ours[field] !== exp.totals[field])
    if (diff.length > 0)
      failures.push(`usage ${diff.map((f) => `${f} ${ours[f]} ≠ ${exp.totals[f]}`).join(', ')}`)
    const where = { bin: outcome.bin, env: outcome.env, cwd: scenarioOutcome.cwd }
    const agentOwn = await spec.cumulative?.(files, where)
    if (
      agentOwn !== undefined &&
      (agentOwn.inputTokens !== exp.totals.inputTokens || agentOwn.outputTokens !== exp.totals.outputTokens)
    ) {
      failures.push(
        `the agent's own total (${agentOwn.source}: in ${agentOwn.inputTokens}, out ${agentOwn.outputTokens}) ≠ the server-derived expectation`,
      )
    }
    const check = {
      label: scenarioOutcome.scenario.label,
      files,
      listed: files.length - notListed.length,
      read,
    }
    scenarios.push({
      ...check,
      unreadLines,
      expected: exp.totals,
      ours,
      ...(agentOwn === undefined ? {} : { agentOwn }),
      matches: exp.matches,
      excluded: exp.excluded,
      // A run that crashed or hung proves nothing about our readers, but it is no pass either.
      failures: [
        ...(listProblem === undefined ? [] : [listProblem]),
        ...notes.map((n) => `run: ${n}`),
        ...failures,
      ],
      runNotes: notes,
      stepMs: scenarioOutcome.runs.map((r) => r.ms),
      refused: scenarioOutcome.refused,
    })
  }
  return listProblem === undefined ? { scenarios } : { scenarios, listProblem }
}

/** The last two path segments: enough to tell files apart in a table. */
export function shortName(file: string): string {
  return file.split('/').slice(-2).join('/')
}
