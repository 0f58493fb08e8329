import { readFileSync } from 'node:fs'
import type { Normalized } from './server/reply.js'
import type { LogEntry } from './server/server.js'

/**
 * The expected usage of a scenario, from the server's log alone: each model request the server answered is
 * matched to what the agent wrote — by its response id (or request id) found in a session file, else by its
 * token tuple (the two distinct figures the server sent, found as numbers in one file) — and its usage counts
 * once. A request found in no file is excluded, with the reason. No reader of ours is involved.
 */

export interface Match {
  readonly seq: number
  readonly by: 'response id' | 'request id' | 'token tuple'
  readonly file: string
}

export interface Exclusion {
  readonly seq: number
  readonly reason: string
}

export interface Totals extends Normalized {
  readonly requests: number
}

export const ZERO: Totals = {
  inputTokens: 0,
  cacheReadInputTokens: 0,
  cacheCreationInputTokens: 0,
  outputTokens: 0,
  reasoningOutputTokens: 0,
  totalTokens: 0,
  requests: 0,
}

export function add(a: Totals, b: Normalized): Totals {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    cacheReadInputTokens: a.cacheReadInputTokens + b.cacheReadInputTokens,
    cacheCreationInputTokens: a.cacheCreationInputTokens + b.cacheCreationInputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    reasoningOutputTokens: a.reasoningOutputTokens + b.reasoningOutputTokens,
    totalTokens: a.totalTokens + b.totalTokens,
    requests: a.requests + 1,
  }
}

export interface Expectation {
  readonly totals: Totals
  readonly matches: readonly Match[]
  readonly excluded: readonly Exclusion[]
}

function hasNumber(text: string, n: number): boolean {
  return new RegExp(`(?<![0-9.])${n}(?![0-9.])`).test(text)
}

/**
 * The pairs of figures an agent may have copied from a request's usage: its input as the API sent it or
 * without the cached part (OpenCode keeps `input` apart from `cache.read`), and its output with or without
 * reasoning (Gemini's `candidatesTokenCount`, OpenCode's `output`). Each request's figures are distinct from
 * every other's (server/reply.ts), so any pair found in one file names this request.
 */
function tuples(entry: LogEntry): (readonly [number, number])[] {
  const u = entry.usage
  if (u === undefined || !entry.completed) return []
  const inputs = new Set([u.fresh, u.fresh + u.cacheRead, u.fresh + u.cacheRead + u.cacheWrite])
  const outputs = new Set([u.output, u.output - u.reasoning])
  return [...inputs].flatMap((i) => [...outputs].map((o) => [i, o] as const))
}

function excludeReason(entry: LogEntry): string {
  if (entry.purpose === 'json')
    return 'a schema-bound side call (router / next-speaker check) the agent does not record'
  if (entry.reply === 'stall') return 'cut mid-stream by the kill; the agent recorded nothing of it'
  return 'found in no session file (neither its response id nor its token tuple)'
}

export function expectation(entries: readonly LogEntry[], files: readonly string[]): Expectation {
  const texts = files.map((file) => ({ file, text: readText(file) }))
  let totals = ZERO
  const matches: Match[] = []
  const excluded: Exclusion[] = []
  for (const entry of entries) {
    if (entry.api === 'other') {
      excluded.push({ seq: entry.seq, reason: `not a model call (${entry.path})` })
      continue
    }
    const match = findMatch(entry, texts)
    if (match === undefined) {
      excluded.push({ seq: entry.seq, reason: excludeReason(entry) })
      continue
    }
    matches.push(match)
    if (entry.normalized !== undefined) totals = add(totals, entry.normalized)
  }
  return { totals, matches, excluded }
}

function findMatch(entry: LogEntry, texts: readonly { file: string; text: string }[]): Match | undefined {
  for (const { file, text } of texts) {
    if (entry.responseId !== undefined && text.includes(`"${entry.responseId}"`))
      return { seq: entry.seq, by: 'response id', file }
    if (entry.requestId !== undefined && text.includes(`"${entry.requestId}"`))
      return { seq: entry.seq, by: 'request id', file }
  }
  for (const { file, text } of texts) {
    for (const [input, output] of tuples(entry)) {
      if (hasNumber(text, input) && hasNumber(text, output))
        return { seq: entry.seq, by: 'token tuple', file }
    }
  }
  return undefined
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    // Gone or unreadable: nothing of the server's can be found in it.
    return ''
  }
}
