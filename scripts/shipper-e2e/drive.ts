/**
 * Drives the example agent the way a fleet machine would see it: several sessions written at once, each
 * SIGKILLed at random moments and resumed with `--resume`, records from 1 KB to 6 MB, and `sessiontape
 * repair` (a torn tail repaired in place; a damaged file repaired into a new name).
 */
import { spawn, spawnSync } from 'node:child_process'
import { appendFileSync, existsSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { inspectTailSync } from '@sessiontape/recorder'

export const repoDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const examplesDir = join(repoDir, 'examples')
const agentEntry = join(examplesDir, 'agent', 'main.ts')
const cliEntry = join(repoDir, 'packages', 'cli', 'src', 'main.ts')
const NODE_ARGS = ['--conditions=@sessiontape/source', '--import', 'tsx']

/** `--pad-bytes` values: the agent pads with '·' (2 bytes in UTF-8), so a padded record is about twice this. */
export const PADS = { '1 KB': 450, '100 KB': 50_000, '3 MB': 1_500_000, '6 MB': 3_000_000 } as const
export type PadName = keyof typeof PADS

/** A small seeded PRNG (mulberry32): a run can be replayed with its seed. */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export interface Cycle {
  readonly session: string
  readonly pad: PadName
  readonly resumed: boolean
  /** ms after the transcript first grew in this run that SIGKILL was sent; null: the run ended on its own. */
  readonly killedAfterMs: number | null
  readonly exitCode: number | null
  readonly tornAfter: boolean
}

export interface DriveLog {
  readonly cycles: Cycle[]
  readonly repairs: Array<{
    readonly session: string
    readonly kind: 'torn-tail' | 'damaged'
    readonly output: string
    readonly code: number | null
  }>
  readonly problems: string[]
  /** No kill cut a record, so the torn tail to repair was made by appending a record's first bytes. */
  simulatedTornTail?: boolean
}

function sizeOf(file: string): number {
  return existsSync(file) ? statSync(file).size : 0
}

function isTorn(file: string): boolean {
  if (!existsSync(file)) return false
  return inspectTailSync(file).validLength < sizeOf(file)
}

/** One run of the agent; SIGKILLed `killAfterMs` after its transcript first grows, or left to finish. */
async function runAgent(
  sessionsDir: string,
  session: string,
  resumed: boolean,
  pad: PadName,
  killAfterMs: number | null,
  log: DriveLog,
): Promise<void> {
  const file = join(sessionsDir, `${session}.jsonl`)
  const big = PADS[pad] >= 1_000_000
  const args = [
    ...NODE_ARGS,
    agentEntry,
    '--dir',
    sessionsDir,
    ...(resumed ? ['--resume', session] : ['--session', session]),
    '--turns',
    killAfterMs === null ? '2' : big ? '2' : '40',
    '--delay-ms',
    big ? '100' : '10',
    '--pad-bytes',
    String(PADS[pad]),
    '--seed',
    String(log.cycles.length + 1),
  ]
  const child = spawn(process.execPath, args, {
    cwd: examplesDir,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, NODE_OPTIONS: '', INIT_CWD: examplesDir },
  })
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)))
  let killedAfterMs: number | null = null
  if (killAfterMs !== null) {
    const start = sizeOf(file)
    while (child.exitCode === null && child.signalCode === null && sizeOf(file) === start) await sleep(5)
    await sleep(killAfterMs)
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL')
      killedAfterMs = killAfterMs
    }
  }
  const exitCode = await exited
  if (killedAfterMs === null && exitCode !== 0) {
    log.problems.push(
      `${session}: the agent exited ${exitCode} (${resumed ? 'resume' : 'new'}): ${stderr.trim().slice(-300)}`,
    )
  }
  log.cycles.push({ session, pad, resumed, killedAfterMs, exitCode, tornAfter: isTorn(file) })
}

/** `sessiontape repair <file>` from source; returns its output. */
function repair(file: string): { code: number | null; output: string } {
  const run = spawnSync(process.execPath, [...NODE_ARGS, cliEntry, 'repair', file], {
    cwd: join(repoDir, 'packages', 'recorder'),
    encoding: 'utf8',
  })
  return { code: run.status, output: `${run.stdout}${run.stderr}` }
}

export interface DrivePlan {
  readonly sessionsDir: string
  readonly sessions: number
  /** SIGKILL + `--resume` cycles per session. */
  readonly killsPerSession: number
  readonly pads: readonly PadName[]
  readonly seed: number
}

/**
 * Runs every session's cycles concurrently. Session 0 ends with a torn tail repaired by `sessiontape
 * repair` (append-only, in place); session 1 gets a damaged line (as a disk error would leave) and a full
 * repair, whose copy goes to .sessiontape/ where the shipper's glob does not reach. Every session ends
 * with a run that finishes on its own, so every line is terminated and shippable.
 */
export async function drive(plan: DrivePlan): Promise<DriveLog> {
  const log: DriveLog = { cycles: [], repairs: [], problems: [] }
  const random = createRandom(plan.seed)
  const ids = Array.from({ length: plan.sessions }, (_, i) => `fleet-${i}`)
  await Promise.all(
    ids.map(async (id, index) => {
      for (let cycle = 0; cycle < plan.killsPerSession; cycle++) {
        const pad = plan.pads[(index + cycle) % plan.pads.length]!
        // Half the kills land within 60 ms of the first write (mid-record for the big ones), half anywhere
        // in the next 1.5 s: during and between records.
        const killAfterMs = Math.floor(random() * (random() < 0.5 ? 60 : 1500))
        await runAgent(plan.sessionsDir, id, cycle > 0, pad, killAfterMs, log)
      }
    }),
  )
  const tornSession = ids[0]!
  const tornFile = join(plan.sessionsDir, `${tornSession}.jsonl`)
  // A torn tail to repair: kill during a 6 MB record until one is cut (almost always the first try; on a
  // loaded machine the agent starts slower, so each attempt waits a little longer before the kill).
  for (let attempt = 0; attempt < 20 && !isTorn(tornFile); attempt++) {
    const killAfterMs = 20 + attempt * 100 + Math.floor(random() * 200)
    await runAgent(plan.sessionsDir, tornSession, true, '6 MB', killAfterMs, log)
  }
  if (!isTorn(tornFile)) {
    // No kill landed between the writes of one record (a 6 MB record is two 4 MiB writes: a window of a few
    // ms, easily missed on a loaded machine). Cut a record the way a crash does instead: its first bytes,
    // no newline — what a SIGKILL mid-write leaves. The shipper must not ship it until it is ended.
    appendFileSync(tornFile, '{"uuid":"00000000-0000-4000-8000-000000000000","parentUuid":null,"sessionId":"')
    log.simulatedTornTail = true
  }
  if (!isTorn(tornFile)) log.problems.push(`${tornSession}: could not make a torn tail to repair`)
  const tornRepair = repair(tornFile)
  log.repairs.push({ session: tornSession, kind: 'torn-tail', ...tornRepair })

  if (ids.length > 1) {
    const damagedSession = ids[1]!
    const damagedFile = join(plan.sessionsDir, `${damagedSession}.jsonl`)
    // The last run may have been killed mid-record: end that first (a resume), then damage a whole line.
    await runAgent(plan.sessionsDir, damagedSession, true, '1 KB', null, log)
    appendFileSync(damagedFile, 'not json: a line damaged on disk\n')
    log.repairs.push({ session: damagedSession, kind: 'damaged', ...repair(damagedFile) })
  }
  // The last runs finish on their own, each with one record size, biggest first: every size ends up in
  // a transcript as a whole record, whatever the kills cut before.
  const sizes = (Object.keys(PADS) as PadName[]).reverse()
  await Promise.all(
    ids.map((id, index) => runAgent(plan.sessionsDir, id, true, sizes[index % sizes.length]!, null, log)),
  )
  for (const r of log.repairs)
    if (r.code !== 0) log.problems.push(`repair of ${r.session} exited ${r.code}: ${r.output}`)
  return log
}
