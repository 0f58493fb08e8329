import { readdir } from 'node:fs/promises'
import path from 'node:path'
import { openByteSource } from '../byte-source.js'
import { rolloutNameOf } from './synthesized-uuid.js'

/** Segments followed back from one file: far more than any thread has, and a bound on a looping chain. */
export const MAX_SEGMENTS = 1000
/** How much of a segment's first line is read to find its `session_meta` (its `base_instructions` can be tens of KiB). */
const FIRST_LINE_BYTES = 1024 * 1024
/** Day directories looked through for a base segment in `<sessions>/YYYY/MM/DD` (10 years of days). */
const MAX_DAY_DIRS = 3660
const YEAR = /^\d{4}$/
const TWO_DIGITS = /^\d{2}$/

/**
 * The files to read for the Codex rollout `filePath`, in order: its thread's earlier segments, then itself.
 * A segment (`rollout-<time>-<thread>_<segment>.jsonl[.zst]`) starts with a `session_meta` whose
 * `history_base` names the rollout it continues (`history_base.thread_id`, the base's rollout id: the
 * part of its file name after the time; `rollout_id` or a plain string are read the same way); that one may
 * name its own base, and so on. Bases are looked for beside the file and, when it sits in Codex's
 * `<sessions>/YYYY/MM/DD/` tree, in every day of that tree (a thread can outlive a day). A base that cannot
 * be found ends the walk there: what exists is read. Never more than {@link MAX_SEGMENTS}; a loop stops.
 */
export async function codexSegmentChain(filePath: string, signal?: AbortSignal): Promise<string[]> {
  const chain = [filePath]
  const seen = new Set([path.resolve(filePath)])
  let candidates: Map<string, string> | undefined
  let current = filePath
  while (chain.length < MAX_SEGMENTS) {
    signal?.throwIfAborted()
    const base = await historyBaseOf(current)
    if (base === undefined) break
    candidates ??= await rolloutFilesAround(filePath)
    const found = candidates.get(base)
    if (found === undefined || seen.has(path.resolve(found))) break
    seen.add(path.resolve(found))
    chain.unshift(found)
    current = found
  }
  return chain
}

/** The rollout id a segment's `session_meta.history_base` names, or undefined (a thread's first file). */
export async function historyBaseOf(filePath: string): Promise<string | undefined> {
  const meta = await firstLineOf(filePath)
  if (meta?.type !== 'session_meta') return undefined
  const payload = meta.payload as Record<string, unknown> | null | undefined
  const base = typeof payload === 'object' && payload !== null ? payload.history_base : undefined
  if (typeof base === 'string') return base.length > 0 ? base : undefined
  if (base === null || typeof base !== 'object' || Array.isArray(base)) return undefined
  const fields = base as Record<string, unknown>
  for (const key of ['thread_id', 'rollout_id', 'id']) {
    const value = fields[key]
    if (typeof value === 'string' && value.length > 0) return value
  }
  return undefined
}

/** The first line of a (possibly compressed) file as an object, or undefined. */
async function firstLineOf(filePath: string): Promise<Record<string, unknown> | undefined> {
  let source
  try {
    source = await openByteSource(filePath)
  } catch {
    // Unreadable: it has no base we can follow; reading the file itself reports why.
    return undefined
  }
  try {
    const buffer = Buffer.alloc(FIRST_LINE_BYTES)
    let got = 0
    while (got < buffer.length) {
      const n = await source.read(buffer, got, buffer.length - got)
      if (n === 0) break
      got += n
      if (buffer.subarray(0, got).includes(0x0a)) break
    }
    const end = buffer.subarray(0, got).indexOf(0x0a)
    const value: unknown = JSON.parse(buffer.toString('utf8', 0, end === -1 ? got : end))
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined
  } catch {
    // Not JSON: no base to follow.
    return undefined
  } finally {
    await source.close()
  }
}

/**
 * Rollout files that can hold a base of `filePath`, by rollout id: its directory, and every day directory
 * of the `<sessions>/YYYY/MM/DD` tree it is in. An uncompressed copy wins over a `.zst` one (it is newer
 * or equal: Codex compresses a rollout once it is closed).
 */
export async function rolloutFilesAround(filePath: string): Promise<Map<string, string>> {
  const dir = path.dirname(filePath)
  const dirs = [dir]
  const day = path.basename(dir)
  const month = path.basename(path.dirname(dir))
  const year = path.basename(path.dirname(path.dirname(dir)))
  if (TWO_DIGITS.test(day) && TWO_DIGITS.test(month) && YEAR.test(year)) {
    dirs.push(...(await dayDirsOf(path.dirname(path.dirname(path.dirname(dir))))).filter((d) => d !== dir))
  }
  const byId = new Map<string, string>()
  for (const at of dirs) {
    const entries = await readdir(at).catch(() => [])
    for (const name of entries) {
      const rollout = rolloutNameOf(name)
      if (rollout === undefined) continue
      const found = byId.get(rollout.rolloutId)
      if (found === undefined || (found.endsWith('.zst') && !name.endsWith('.zst')))
        byId.set(rollout.rolloutId, path.join(at, name))
    }
  }
  return byId
}

/** Every `YYYY/MM/DD` directory under Codex's sessions directory `root` (bounded). */
export async function dayDirsOf(root: string): Promise<string[]> {
  const days: string[] = []
  const list = async (dir: string, pattern: RegExp): Promise<string[]> =>
    (await readdir(dir, { withFileTypes: true }).catch(() => []))
      .filter((entry) => entry.isDirectory() && pattern.test(entry.name))
      .map((entry) => path.join(dir, entry.name))
      .sort()
  for (const year of await list(root, YEAR)) {
    for (const month of await list(year, TWO_DIGITS)) {
      for (const day of await list(month, TWO_DIGITS)) {
        if (days.length >= MAX_DAY_DIRS) return days
        days.push(day)
      }
    }
  }
  return days
}
