/** The kill fuzz's counters, summed over every case, and the table they print as. */
export class Tally {
  /** Children that died by SIGKILL (by the parent or by their own killer thread). */
  kills = 0
  killsSelf = 0
  killsEarly = 0
  killsMid = 0
  killsLate = 0
  /** Where the kill found the child: inside createRecorder, before ready(), after it. */
  killedInCreate = 0
  killedBeforeReady = 0
  killedAfterReady = 0
  /** Kills that left the transcript ending inside a line. */
  tornTails = 0
  /** Children started with `resume: true` on an existing transcript (the clean closers included). */
  resumes = 0
  /** Of those, the ones that printed ready (the others were killed first). */
  resumesReady = 0
  resumeReadyMaxMs = 0
  /** Chains ended by a clean resume + close. */
  closers = 0
  cases = 0
  children = 0
  /** Acknowledged records looked up, summed over every check (one per child). */
  ackedChecks = 0
  /** Distinct acknowledged records. */
  ackedRecords = 0
  /** Of those, recorded with `{ handOver: true }` (in the file at the chain's last check). */
  ackedHandOver = 0
  /** Children that handed some of their records over / that ran with a small maxQueueBytes. */
  childrenHandingOver = 0
  childrenSmallQueue = 0
  /** Records whose content digest was checked (each once, when first seen whole in the file). */
  verifiedRecords = 0
  /** Of those, handed over: all shapes, then the structure-heavy and long-string ones. */
  verifiedHandOver = 0
  verifiedHandOverStructure = 0
  verifiedHandOverLongStrings = 0
  verifiedHandOverHugeString = 0
  /** Long-string records recorded without handOver (their strings may be held by reference too). */
  verifiedCopiedBig = 0
  lost = 0
  duplicated = 0
  /** record() calls refused with QueueFullError before ready() resolved (counted, not failures) / after it. */
  refusedBeforeReady = 0
  refusedAfterReady = 0
  /** Records whose content does not match the digest computed before record(). */
  contentWrong = 0
  /** Records of a child out of its recording order, or after a missing one. */
  misordered = 0
  missingMarks = 0
  /** flush() resolved to a count below the records accepted before it. */
  watermarksWrong = 0
  prefixViolations = 0
  readerProblems = 0
  /** Torn lines the reader reported as recovered, at the end of each chain. */
  recoveredLines = 0
  slowResumes = 0
  lockedResumes = 0
  lockModeWrong = 0
  /** onError reports or rejections other than ERR_SESSION_LOCKED. */
  recorderErrors = 0
  /** Children that ended any other way than SIGKILL or exit 0 after close, or hung. */
  crashes = 0
  bytesChecked = 0
  failedCases = 0

  add(other: Tally): void {
    const into = this as unknown as Record<string, number>
    for (const [key, value] of Object.entries(other) as Array<[string, number]>) {
      into[key] = key === 'resumeReadyMaxMs' ? Math.max(into[key]!, value) : into[key]! + value
    }
  }

  get failures(): number {
    return (
      this.lost +
      this.duplicated +
      this.contentWrong +
      this.misordered +
      this.refusedAfterReady +
      this.missingMarks +
      this.watermarksWrong +
      this.prefixViolations +
      this.readerProblems +
      this.slowResumes +
      this.lockedResumes +
      this.lockModeWrong +
      this.recorderErrors +
      this.crashes
    )
  }
}

/** The summary table (Markdown), failures marked. */
export function formatSummary(tally: Tally, elapsedMs: number): string {
  const mark = (n: number): string => (n === 0 ? '0' : `${n}  ← FAIL`)
  const rows: Array<[string, string]> = [
    [
      'kills (SIGKILL)',
      `${tally.kills} (own thread ${tally.killsSelf}, ≤10 ms ${tally.killsEarly}, 10–500 ms ${tally.killsMid}, 0.5–3 s ${tally.killsLate})`,
    ],
    [
      'kill landed',
      `in createRecorder ${tally.killedInCreate}, before ready ${tally.killedBeforeReady}, after ready ${tally.killedAfterReady}`,
    ],
    ['kills that left a torn line', String(tally.tornTails)],
    ['sessions (chains) / children', `${tally.cases} / ${tally.children}`],
    [
      'resumes (of an existing transcript)',
      `${tally.resumes} (${tally.resumesReady} reached ready, slowest ${tally.resumeReadyMaxMs.toFixed(0)} ms; ${tally.closers} clean closes)`,
    ],
    [
      'acknowledged records checked',
      `${tally.ackedChecks} look-ups of ${tally.ackedRecords} distinct records, ${(tally.bytesChecked / 1024 / 1024).toFixed(0)} MiB of transcript read`,
    ],
    [
      'children handing over / with a small maxQueueBytes',
      `${tally.childrenHandingOver} / ${tally.childrenSmallQueue}`,
    ],
    [
      'records content-checked (digest, order)',
      `${tally.verifiedRecords}, of which handed over ${tally.verifiedHandOver} (structure ${tally.verifiedHandOverStructure}, long strings ${tally.verifiedHandOverLongStrings}, huge string ${tally.verifiedHandOverHugeString}); big strings copied ${tally.verifiedCopiedBig}`,
    ],
    ['acknowledged hand-over records (distinct)', String(tally.ackedHandOver)],
    [
      'record() refused (QueueFullError): before ready / after ready',
      `${tally.refusedBeforeReady} / ${mark(tally.refusedAfterReady)}`,
    ],
    ['torn lines reported as recovered', String(tally.recoveredLines)],
    ['lost (acknowledged, not in the file)', mark(tally.lost)],
    ['duplicated (uuid on two lines)', mark(tally.duplicated)],
    ['content not as recorded / out of order', `${mark(tally.contentWrong)} / ${mark(tally.misordered)}`],
    [
      'watermarks: uuid not in the file / count too low',
      `${mark(tally.missingMarks)} / ${mark(tally.watermarksWrong)}`,
    ],
    ['prefix violations (not append-only)', mark(tally.prefixViolations)],
    ['reader problems (not recovered)', mark(tally.readerProblems)],
    ['slow (> 5 s) / locked resumes', `${mark(tally.slowResumes)} / ${mark(tally.lockedResumes)}`],
    ['lock directory (or .sessiontape/) not 0700', mark(tally.lockModeWrong)],
    ['other recorder errors', mark(tally.recorderErrors)],
    ['children crashed or hung', mark(tally.crashes)],
    ['elapsed', `${(elapsedMs / 1000).toFixed(0)} s`],
  ]
  const width = Math.max(...rows.map(([name]) => name.length))
  const valueWidth = Math.max(...rows.map(([, value]) => value.length))
  return [
    `| ${'figure'.padEnd(width)} | ${'value'.padEnd(valueWidth)} |`,
    `|${'-'.repeat(width + 2)}|${'-'.repeat(valueWidth + 2)}|`,
    ...rows.map(([name, value]) => `| ${name.padEnd(width)} | ${value.padEnd(valueWidth)} |`),
  ].join('\n')
}
