import fs from 'node:fs'
import path from 'node:path'

import { createRecorder, readSession, type RecorderError } from '../../../src/index.js'
import type { CrashState, Tree } from './crash-model.js'

/** Problems of the links between records, not of the bytes: a chain continued into a recreated file has an orphan by design. */
const LINK_KINDS = new Set(['orphan', 'duplicate-uuid', 'cycle'])

/**
 * Line damage a crash may leave: only after the last valid record (a torn line, or one ended by a newline
 * whose `recovered` record did not persist) — exactly what a resume quarantines. Damage before a valid
 * record is damage in the middle of the transcript.
 */
function damageInTheMiddle(read: Awaited<ReturnType<typeof readSession>>): string[] {
  const lastRecordLine = read.lines.at(-1) ?? 0
  return read.problems
    .filter((problem) => !LINK_KINDS.has(problem.kind) && problem.line < lastRecordLine)
    .map((problem) => `${problem.kind} at line ${problem.line}`)
}

/** Writes `tree` under `root` (which must be empty): the disk as the crash left it. */
export function materialize(tree: Tree, root: string): void {
  fs.mkdirSync(root, { recursive: true })
  const sorted = [...tree].sort(([a], [b]) => a.split('/').length - b.split('/').length || (a < b ? -1 : 1))
  for (const [p, entry] of sorted) {
    const target = path.join(root, ...p.split('/'))
    if (entry.type === 'dir') fs.mkdirSync(target, { mode: 0o700 })
    else fs.writeFileSync(target, entry.data, { mode: 0o600 })
  }
}

/** The session a scenario writes, relative to its root; checked by resuming it in every state. */
export interface SessionUnderTest {
  readonly dir: string
  readonly sessionId: string
}

/**
 * The invariants every crash state must keep, checked on the materialized tree at `root`; returns what
 * is broken (empty: nothing):
 * 1. every record a flush with fsync acknowledged is in the transcript, exactly once;
 * 2. the transcript parses: line damage, if any, is after its last valid record (what a resume quarantines);
 * 3. a resume works and continues the chain from the last valid record;
 * 4. while the resumed writer holds the session, a second writer is refused (the lock lets one in);
 * 5. a promised repair copy is complete, and a sidecar under its name is whole (old or new, never torn),
 *    the final one once close() resolved.
 */
export async function checkState(
  state: CrashState,
  root: string,
  session: SessionUnderTest | null,
): Promise<string[]> {
  const violations: string[] = []
  for (const promise of state.promises) {
    const file = path.join(root, ...promise.file.split('/'))
    if (promise.type === 'records') {
      if (!fs.existsSync(file)) {
        violations.push(`${promise.uuids.length} acknowledged record(s) lost: ${promise.file} does not exist`)
        continue
      }
      const read = await readSession(file)
      for (const uuid of promise.uuids) {
        const copies = read.records.filter((record) => record.uuid === uuid).length
        if (copies !== 1) violations.push(`acknowledged record ${uuid} is in ${promise.file} ${copies} times`)
      }
    } else if (promise.type === 'copy') {
      if (!fs.existsSync(file)) {
        violations.push(`the repaired copy ${promise.file} that repairTranscript returned does not exist`)
        continue
      }
      const read = await readSession(file)
      const damage = read.problems.filter((problem) => !LINK_KINDS.has(problem.kind))
      if (read.records.length !== promise.records || damage.length > 0)
        violations.push(
          `the repaired copy ${promise.file} has ${read.records.length} records (promised ${promise.records}) and line damage: ${damage.map((p) => p.kind).join(', ') || 'none'}`,
        )
    } else {
      const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null
      const count = sidecarCount(text)
      if (count !== promise.recordCount)
        violations.push(
          `after close() the sidecar ${promise.file} says ${count ?? `nothing (${text === null ? 'missing' : 'unreadable'})`}, not ${promise.recordCount} records`,
        )
    }
  }
  for (const [p, entry] of state.tree) {
    if (
      entry.type === 'file' &&
      p.endsWith('.meta.json') &&
      sidecarCount(entry.data.toString('utf8')) === null
    )
      violations.push(
        `the sidecar ${p} is torn (${entry.data.length} bytes): a rename published it before its bytes`,
      )
  }
  if (session !== null) violations.push(...(await checkResume(root, session)))
  return violations
}

function sidecarCount(text: string | null): number | null {
  if (text === null) return null
  try {
    const meta = JSON.parse(text) as { recordCount?: unknown }
    return typeof meta.recordCount === 'number' ? meta.recordCount : null
  } catch {
    return null
  }
}

async function checkResume(root: string, session: SessionUnderTest): Promise<string[]> {
  const violations: string[] = []
  const dir = path.join(root, ...session.dir.split('/'))
  const file = path.join(dir, `${session.sessionId}.jsonl`)
  let lastUuid: string | null = null
  let before: string[] = []
  if (fs.existsSync(file)) {
    const read = await readSession(file)
    lastUuid = read.lastUuid
    before = read.records.map((record) => record.uuid)
    const damage = damageInTheMiddle(read)
    if (damage.length > 0)
      violations.push(`the transcript has damage before its last record: ${damage.join(', ')}`)
  }
  const errors: RecorderError[] = []
  const resumed = createRecorder({
    dir,
    sessionId: session.sessionId,
    resume: true,
    meta: false,
    onError: (error) => errors.push(error),
  })
  const second = createRecorder({
    dir,
    sessionId: session.sessionId,
    resume: true,
    meta: false,
    onError: () => {},
  })
  try {
    await resumed.ready()
    const refused = await second.ready().then(
      () => null,
      (error: unknown) => error as RecorderError,
    )
    if (refused?.code !== 'ERR_SESSION_LOCKED')
      violations.push(
        `a second writer got in while the resumed one held the session (${refused?.code ?? 'ready() resolved'})`,
      )
    const probe = resumed.record('probe', { crashState: true })
    await resumed.close()
    if (errors.length > 0) violations.push(`the resume reported: ${errors.map((e) => e.message).join('; ')}`)
    const after = await readSession(file)
    const written = after.records.find((record) => record.uuid === probe)
    if (written === undefined) violations.push('the record written after the resume is not in the transcript')
    else if (written.parentUuid !== lastUuid)
      violations.push(
        `the resume did not continue the chain: parent ${written.parentUuid}, last record was ${lastUuid}`,
      )
    const damage = after.problems.filter((problem) => !LINK_KINDS.has(problem.kind))
    if (damage.length > 0)
      violations.push(
        `after the resume the transcript has line damage: ${damage.map((p) => p.kind).join(', ')}`,
      )
    const kept = new Set(after.records.map((record) => record.uuid))
    const dropped = before.filter((uuid) => !kept.has(uuid))
    if (dropped.length > 0)
      violations.push(`the resume lost ${dropped.length} record(s) that were in the file`)
  } catch (error) {
    violations.push(`the resume failed: ${(error as Error).message}`)
    await resumed.close().catch(() => {})
  } finally {
    await second.close().catch(() => {})
  }
  return violations
}
