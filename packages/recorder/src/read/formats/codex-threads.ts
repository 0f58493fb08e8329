import path from 'node:path'
import { historyBaseOf } from './codex-segments.js'
import { rolloutNameOf } from './synthesized-uuid.js'

interface Candidate {
  readonly dir: string
  readonly name: string
}

/**
 * Groups a listing's Codex rollout files by thread, so a thread is listed once: the files of one thread
 * (its first rollout and its segments, each maybe also compressed) become one entry, its head — the
 * newest segment no other segment continues (reading it reads the whole thread) — with every file of the
 * thread as `segments`. A rollout kept both plain and compressed counts once (the plain copy). Files that
 * are not Codex rollouts pass through unchanged, in order.
 */
export async function groupCodexThreads(
  files: readonly Candidate[],
): Promise<{ heads: Candidate[]; segmentsOf: Map<string, string[]> }> {
  const byThread = new Map<string, Map<string, Candidate>>()
  const heads: Candidate[] = []
  for (const file of files) {
    const rollout = rolloutNameOf(file.name)
    if (rollout === undefined) {
      heads.push(file)
      continue
    }
    let rollouts = byThread.get(rollout.threadId)
    if (rollouts === undefined) byThread.set(rollout.threadId, (rollouts = new Map<string, Candidate>()))
    const held = rollouts.get(rollout.rolloutId)
    // The plain copy wins: Codex compresses a rollout once it is closed, so the plain one is as new or newer.
    if (held === undefined || (held.name.endsWith('.zst') && !file.name.endsWith('.zst')))
      rollouts.set(rollout.rolloutId, file)
  }
  const segmentsOf = new Map<string, string[]>()
  for (const rollouts of byThread.values()) {
    const thread = [...rollouts.values()].sort((a, b) => a.name.localeCompare(b.name))
    if (thread.length === 1) {
      heads.push(thread[0]!)
      continue
    }
    const bases = new Set<string>()
    for (const file of thread) {
      const base = await historyBaseOf(path.join(file.dir, file.name))
      if (base !== undefined) bases.add(base)
    }
    // Names start with the local time, so the last in name order is the newest.
    const open = thread.filter((file) => !bases.has(rolloutNameOf(file.name)!.rolloutId))
    const head = (open.length > 0 ? open : thread).at(-1)!
    heads.push(head)
    segmentsOf.set(
      path.join(head.dir, head.name),
      thread.map((file) => path.join(file.dir, file.name)),
    )
  }
  return { heads, segmentsOf }
}
