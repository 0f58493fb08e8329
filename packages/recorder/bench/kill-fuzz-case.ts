import fs from 'node:fs'
import path from 'node:path'

import type { FsyncMode } from '../src/index.js'
import { lockPathOf } from '../src/lock/session-lock.js'
import {
  checkTranscript,
  type Ledger,
  linesAt,
  type LockLeft,
  lockLeft,
  type Verdict,
} from './kill-fuzz-check.js'
import type { ChildEvent, ChildPlan } from './kill-fuzz-protocol.js'
import { caseSeed, Random } from './kill-fuzz-random.js'
import { type ChildRun, runChild } from './kill-fuzz-run-child.js'
import { Tally } from './kill-fuzz-tally.js'

/** A resume that takes longer than this to get the lock and open the file did not get it "at once". */
export const SLOW_RESUME_MS = 5000
// A chain stops (and is closed cleanly) once its transcript is this big: each check reads the whole file.
const MAX_SESSION_BYTES = 48 * 1024 * 1024
// Longest a killed child may run if its kill never comes; then it closes by itself (counted, not a failure).
const MAX_RUN_MS = 20_000
// Past this the parent kills a child as hung (a failure): the longest run plus a generous exit.
const HANG_MS = MAX_RUN_MS + 40_000
const FSYNC_MODES: readonly FsyncMode[] = ['never', 'flush', 'batch']
const BUDGETS = [64 * 1024, 512 * 1024, 4 * 1024 * 1024, 16 * 1024 * 1024] as const
const SMALL_WRITES = [4096, 65_536, 1024 * 1024] as const
// Small queue bounds: the big records are admitted past them as "the one record over the bound", the records
// behind them go through drain-sync, and past an eighth of the bound long strings are escaped in record().
const SMALL_QUEUES = [256 * 1024, 1024 * 1024, 4 * 1024 * 1024] as const
// Share of a child's records handed over (`{ handOver: true }`): none, some, most, all.
const HAND_OVER_SHARES = [0, 0.2, 0.5, 0.9, 1] as const
// Most chains' failures are visible within the reports of the last two children; older ones are dropped.
const KEPT_RUNS = 2

export type KillKind = 'self' | 'early' | 'mid' | 'late'

interface Kill {
  readonly kind: KillKind
  /** For `self`: ms after createRecorder is entered; otherwise ms after the child's `start` line. */
  readonly ms: number
}

export interface CaseSettings {
  readonly root: string
  readonly seed: number
  readonly index: number
  /** False once the run has its kills: the chain then ends with its clean resume. */
  readonly wantsMoreKills: () => boolean
  /** Typical duration of createRecorder in a child, to aim self-kills at it. */
  readonly createMs: () => number
  readonly onCreateMs: (ms: number) => void
  readonly onKill: () => void
  readonly keepAll: boolean
}

export interface CaseOutcome {
  readonly tally: Tally
  /** One line per failure, each naming the case and child. */
  readonly failures: readonly string[]
  /** The case directory, when it was kept. */
  readonly keptDir: string | null
}

interface Step {
  readonly child: number
  readonly plan: ChildPlan
  readonly kill: Kill | null
  readonly run: ChildRun
  readonly lock: LockLeft | null
  readonly verdict: Verdict
}

/**
 * One case: a session and its chain of children. The first child starts the session; each next one resumes
 * what the previous killed child left; a last child resumes and closes cleanly. After every child the
 * transcript is checked against the snapshot taken after the child before it and against every
 * acknowledged record of the chain.
 */
export async function runCase(settings: CaseSettings): Promise<CaseOutcome> {
  const random = new Random(caseSeed(settings.seed, settings.index))
  const tally = new Tally()
  tally.cases = 1
  const dir = path.join(settings.root, `case-${settings.index}`)
  fs.mkdirSync(dir, { recursive: true })
  const sessionId = `fuzz-${settings.index}`
  const filePath = path.join(dir, `${sessionId}.jsonl`)
  // Fresh sessions (one kill, then the clean resume) and resume chains of up to 40 kills.
  const chainLength = random.chance(0.3) ? 1 : random.int(2, 40)
  const ledger: Ledger = { acked: new Map(), marks: new Map(), verified: new Set() }
  const failures: string[] = []
  const steps: Step[] = []
  let before: Buffer | null = null
  let previousLock: LockLeft | null = null
  // Acknowledged hand-over records in the file at the latest check.
  let ackedHandOver = 0

  for (let child = 0; ; child++) {
    const closing =
      child >= chainLength || !settings.wantsMoreKills() || (before?.length ?? 0) > MAX_SESSION_BYTES
    const existed = fs.existsSync(filePath)
    const plan: ChildPlan = {
      dir,
      sessionId,
      resume: child > 0 || random.chance(0.3),
      fsync: random.pick(FSYNC_MODES),
      meta: random.chance(0.8),
      maxWriteBytes: random.chance(0.3) ? random.pick(SMALL_WRITES) : undefined,
      maxQueueBytes: random.chance(0.3) ? random.pick(SMALL_QUEUES) : undefined,
      handOverShare: random.pick(HAND_OVER_SHARES),
      run: child,
      seed: random.seed(),
      selfKillMs: null,
      budgetBytes: closing ? random.int(0, 64 * 1024) : random.pick(BUDGETS),
      finish: closing ? 'close' : 'wait',
      maxRunMs: MAX_RUN_MS,
    }
    const kill = closing ? null : drawKill(random, settings.createMs())
    const run = await runChild(
      kill?.kind === 'self' ? { ...plan, selfKillMs: kill.ms } : plan,
      kill === null || kill.kind === 'self' ? null : kill.ms,
      HANG_MS,
    )
    tally.children++
    if (plan.handOverShare > 0) tally.childrenHandingOver++
    if (plan.maxQueueBytes !== undefined) tally.childrenSmallQueue++
    const where = `case ${settings.index} child ${child}`
    const failedBefore = failures.length
    let fatal = false
    // Every failure ends the case except a locked resume: that one is counted, the dead holder's lock is
    // cleared (what waiting lockStaleMs would do), and the chain goes on, so a lock bug cannot hide the rest.
    const fail = (message: string, endsCase = true): void => {
      failures.push(`${where}: ${message}`)
      fatal ||= endsCase
    }
    const killed = run.signal === 'SIGKILL' && !run.timedOut
    const seen = new Set(run.events.map((event) => event.t))
    const errors = new Map<string, { wheres: string[]; message: string }>()
    let refusedAfterReady: string | null = null

    for (const event of run.events) {
      if (event.t === 'created') settings.onCreateMs(event.ms)
      if (event.t === 'ack') {
        for (const uuid of event.uuids) if (!ledger.acked.has(uuid)) ledger.acked.set(uuid, child)
        if (event.uuid !== null) ledger.marks.set(event.uuid, child)
        if (event.count < event.recorded) {
          tally.watermarksWrong++
          fail(`flush() resolved to count ${event.count} with ${event.recorded} records accepted before it`)
        }
      }
      if (event.t === 'refused') {
        if (event.ready) {
          tally.refusedAfterReady++
          refusedAfterReady ??= event.message
        } else {
          tally.refusedBeforeReady++
        }
      }
      if (event.t === 'error') {
        const same = errors.get(event.code)
        if (same === undefined) errors.set(event.code, { wheres: [event.where], message: event.message })
        else if (!same.wheres.includes(event.where)) same.wheres.push(event.where)
      }
    }
    // Refused before ready: a resume taking over a dead holder's lock cannot drain synchronously, which
    // guarantee 8 of the README names as a reason to refuse. Once ready, the lock is ours and the disk local.
    if (refusedAfterReady !== null) fail(`record() refused after ready: ${refusedAfterReady}`, false)
    // One failure per error code and child: a locked session also fails every flush after it.
    for (const [code, { wheres, message }] of errors) {
      if (code === 'ERR_SESSION_LOCKED') {
        tally.lockedResumes++
        fail(
          `ERR_SESSION_LOCKED (${wheres.join(', ')}): the lock the previous child left was not taken over at once ` +
            `(lock left: ${JSON.stringify(previousLock)}): ${message}`,
          false,
        )
      } else {
        tally.recorderErrors++
        fail(`${code} (${wheres.join(', ')}): ${message}`)
      }
    }

    if (killed) {
      tally.kills++
      settings.onKill()
      if (kill?.kind === 'self') tally.killsSelf++
      else if (kill?.kind === 'early') tally.killsEarly++
      else if (kill?.kind === 'mid') tally.killsMid++
      else tally.killsLate++
      if (!seen.has('created')) tally.killedInCreate++
      else if (!seen.has('ready')) tally.killedBeforeReady++
      else tally.killedAfterReady++
    } else if (run.timedOut) {
      tally.crashes++
      fail(`hung: still running after ${HANG_MS} ms (killed)`)
    } else if (!(run.code === 0 && seen.has('closed')) && !errors.has('ERR_SESSION_LOCKED')) {
      tally.crashes++
      fail(`ended with code ${run.code} signal ${run.signal}; stderr: ${run.stderr.slice(0, 2000)}`)
    }

    if (plan.resume && existed) {
      tally.resumes++
      const ready = run.events.find((event) => event.t === 'ready')
      if (ready !== undefined) {
        tally.resumesReady++
        tally.resumeReadyMaxMs = Math.max(tally.resumeReadyMaxMs, ready.ms)
        if (ready.ms > SLOW_RESUME_MS) {
          tally.slowResumes++
          fail(`resume took ${ready.ms.toFixed(0)} ms to get the lock and open the transcript`)
        }
      } else if (killed && run.killAtMs !== null && run.killAtMs > SLOW_RESUME_MS) {
        tally.slowResumes++
        fail(`resume not ready ${run.killAtMs.toFixed(0)} ms after createRecorder, when it was killed`)
      } else if (!killed && !errors.has('ERR_SESSION_LOCKED')) {
        fail('a resume that closed never reported ready')
      }
    }

    const bytes = fs.existsSync(filePath) ? fs.readFileSync(filePath) : Buffer.alloc(0)
    tally.bytesChecked += bytes.length
    const verdict = await checkTranscript(filePath, bytes, before, ledger, killed)
    tally.ackedChecks += verdict.checked
    if (verdict.prefixViolation !== null) {
      tally.prefixViolations++
      fail(
        `the snapshot taken before this child is no longer a prefix of the file: ${verdict.prefixViolation}`,
      )
    }
    if (verdict.lost.length > 0) {
      tally.lost += verdict.lost.length
      fail(`${verdict.lost.length} acknowledged record(s) missing: ${describeAcks(verdict.lost, ledger)}`)
    }
    if (verdict.duplicated.length > 0) {
      tally.duplicated += verdict.duplicated.length
      fail(`uuid(s) on more than one line: ${verdict.duplicated.slice(0, 5).join(', ')}`)
    }
    if (verdict.missingMarks.length > 0) {
      tally.missingMarks += verdict.missingMarks.length
      fail(`flush watermark uuid(s) not in the file: ${verdict.missingMarks.slice(0, 5).join(', ')}`)
    }
    if (verdict.contentWrong.length > 0) {
      tally.contentWrong += verdict.contentWrong.length
      fail(`record content not what was recorded: ${verdict.contentWrong.slice(0, 3).join(' | ')}`)
    }
    if (verdict.misordered.length > 0) {
      tally.misordered += verdict.misordered.length
      fail(`records out of recording order: ${verdict.misordered.slice(0, 5).join(' | ')}`)
    }
    for (const [key, count] of verdict.newlyVerified) {
      tally.verifiedRecords += count
      if (key.startsWith('handover ')) tally.verifiedHandOver += count
      if (key === 'handover structure') tally.verifiedHandOverStructure += count
      if (key === 'handover long-strings') tally.verifiedHandOverLongStrings += count
      if (key === 'handover huge-string') tally.verifiedHandOverHugeString += count
      if (key === 'copy long-strings' || key === 'copy huge-string') tally.verifiedCopiedBig += count
    }
    if (verdict.problems.length > 0) {
      tally.readerProblems += verdict.problems.length
      const shown = verdict.problems
        .slice(0, 5)
        .map((p) => `line ${p.line} @${p.offset} ${p.kind}: ${p.detail}`)
      fail(`readSession problem(s) not explained by a kill: ${shown.join(' | ')}`)
    }

    let lock: LockLeft | null = null
    if (killed) {
      if (bytes.length > 0 && bytes.at(-1) !== 0x0a) tally.tornTails++
      lock = lockLeft(filePath)
      if (lock.mode !== null && lock.mode !== 0o700) {
        tally.lockModeWrong++
        fail(`the lock directory left behind has mode ${lock.mode.toString(8)}, not 700`)
      }
      if (lock.parentMode !== null && lock.parentMode !== 0o700) {
        tally.lockModeWrong++
        fail(`the directory holding the lock has mode ${lock.parentMode.toString(8)}, not 700`)
      }
    }
    ackedHandOver = verdict.ackedHandOver
    steps.push({ child, plan, kill, run, lock, verdict })
    if (steps.length > KEPT_RUNS) steps.shift()

    if (failures.length > failedBefore) {
      // Keep what reproduces it: the last children's reports and, unless only the lock failed, the file as
      // the previous child left it.
      if (fatal && before !== null) fs.writeFileSync(path.join(dir, `before-child-${child}.jsonl`), before)
      if (verdict.badLines.length > 0) {
        fs.writeFileSync(
          path.join(dir, `damaged-child-${child}.jsonl`),
          linesAt(bytes, verdict.badLines.slice(0, 20)),
        )
      }
      writeReport(dir, settings, chainLength, child, steps, failures.slice(failedBefore))
      if (fatal) {
        tally.ackedRecords = ledger.acked.size
        tally.ackedHandOver = verdict.ackedHandOver
        tally.failedCases = 1
        return { tally, failures, keptDir: dir }
      }
    }
    before = bytes
    previousLock = lock
    if (errors.has('ERR_SESSION_LOCKED')) {
      const lockPath = lockPathOf(filePath)
      fs.rmSync(lockPath, { recursive: true, force: true })
      fs.rmSync(`${lockPath}.owner`, { force: true })
      previousLock = null
      // A closer that was locked out closed nothing: the chain still ends with a clean resume.
      continue
    }
    if (closing) {
      tally.closers++
      tally.recoveredLines = verdict.recoveredLines
      break
    }
  }
  tally.ackedRecords = ledger.acked.size
  tally.ackedHandOver = ackedHandOver
  if (failures.length > 0) tally.failedCases = 1
  const keep = settings.keepAll || failures.length > 0
  if (!keep) fs.rmSync(dir, { recursive: true, force: true })
  return { tally, failures, keptDir: keep ? dir : null }
}

/**
 * When the kill lands. A fifth are sent by a thread of the child itself, timed from the moment
 * createRecorder is entered (half aimed within createRecorder's typical duration: lock takeover, tail
 * inspection, first open); the rest by the parent, timed from the child's `start` line.
 */
function drawKill(random: Random, createMs: number): Kill {
  const roll = random.next()
  if (roll < 0.2) {
    const ms = random.chance(0.5) ? random.real(0, createMs * 1.5) : random.real(0, 30)
    return { kind: 'self', ms }
  }
  if (roll < 0.45) return { kind: 'early', ms: random.real(0, 10) }
  if (roll < 0.8) return { kind: 'mid', ms: random.real(10, 500) }
  return { kind: 'late', ms: random.real(500, 3000) }
}

function describeAcks(uuids: readonly string[], ledger: Ledger): string {
  return uuids
    .slice(0, 5)
    .map((uuid) => `${uuid} (acknowledged by child ${ledger.acked.get(uuid)})`)
    .join(', ')
}

function writeReport(
  dir: string,
  settings: CaseSettings,
  chainLength: number,
  child: number,
  steps: readonly Step[],
  failures: readonly string[],
): void {
  for (const step of steps) {
    fs.writeFileSync(path.join(dir, `child-${step.child}.stdout`), step.run.stdout)
    fs.writeFileSync(path.join(dir, `child-${step.child}.stderr`), step.run.stderr)
  }
  const report = {
    seed: settings.seed,
    case: settings.index,
    replay: `node --conditions=@sessiontape/source --import tsx bench/kill-fuzz.ts --seed ${settings.seed} --case ${settings.index}`,
    chainLength,
    failures,
    lastChildren: steps.map((step) => ({
      child: step.child,
      plan: step.plan,
      kill: step.kill,
      ended: {
        code: step.run.code,
        signal: step.run.signal,
        killedBy: step.run.killedBy,
        killAtMs: step.run.killAtMs,
      },
      events: step.run.events.filter((event: ChildEvent) => event.t !== 'ack').slice(0, 20),
      acks: step.run.events.filter((event) => event.t === 'ack').length,
      lockLeft: step.lock,
      problems: step.verdict.problems,
      pendingTail: step.verdict.pendingTail,
    })),
  }
  fs.writeFileSync(path.join(dir, `failure-child-${child}.json`), `${JSON.stringify(report, null, 2)}\n`)
}
