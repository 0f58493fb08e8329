import type { PathCache } from '@sessiontape/fs-cache'
import { describeReason, formatReport, type ShutdownReport } from '@sessiontape/shutdown'
import type { FlushWatermark, Recorder } from '@sessiontape/recorder'
import type { AgentFlags } from './flags.js'

/** How a user at the repository root reaches the CLI and the demo without building anything. */
const PNPM = 'npx --yes pnpm@10.34.8'

export interface RunOutcome {
  readonly recorder: Recorder
  readonly watermark: FlushWatermark
  readonly cache: PathCache
  readonly workspace: string
}

/** The end-of-run summary: readable by default, one JSON object with --json; on stderr when stdout is the transcript. */
export function printSummary(flags: AgentFlags, outcome: RunOutcome): void {
  const { recorder, watermark, cache, workspace } = outcome
  const stats = recorder.stats()
  const out = flags.print ? process.stderr : process.stdout
  if (flags.json) {
    const summary = {
      sessionId: recorder.sessionId,
      transcript: recorder.filePath,
      workspace,
      recorded: stats.recorded,
      persisted: watermark.count,
      lastUuid: watermark.uuid,
      writes: stats.writes,
      fsyncs: stats.fsyncs,
      pathCache: cache.stats(),
    }
    out.write(`${JSON.stringify(summary)}\n`)
    return
  }
  const cacheStats = cache.stats()
  out.write(
    [
      `sessiontape example agent — session ${recorder.sessionId}`,
      `  recorded   ${stats.recorded} events, all on disk (${plural(stats.writes, 'write')}, ${plural(stats.fsyncs, 'fsync')})`,
      `  transcript ${recorder.filePath}`,
      `  workspace  ${workspace}`,
      `  path cache ${cacheStats.hits} hits, ${cacheStats.misses} misses, ${cacheStats.size} entries`,
      '',
      'Inspect it (from the repository root):',
      `  ${PNPM} -s sessiontape show ${recorder.filePath}`,
      `  ${PNPM} -s sessiontape verify ${recorder.filePath}`,
      `  ${PNPM} -s sessiontape list ${flags.dir}`,
      'Continue it:',
      `  ${PNPM} demo --dir ${flags.dir} --resume ${recorder.sessionId}`,
      '',
    ].join('\n'),
  )
}

/** One line a script can parse: what ended the run, how each cleanup went, and what reached the disk. */
function reportAsJson(report: ShutdownReport, recorder: Recorder): string {
  const stats = recorder.stats()
  return JSON.stringify({
    event: 'shutdown',
    recorded: stats.recorded,
    persisted: stats.persisted,
    report: {
      reason: describeReason(report.reason),
      exitCode: report.exitCode,
      durationMs: Math.round(report.durationMs),
      deadlineExceeded: report.deadlineExceeded,
      cleanups: report.cleanups.map(({ name, status, durationMs, error }) => ({
        name,
        status,
        durationMs: Math.round(durationMs),
        ...(error === undefined
          ? {}
          : { error: error instanceof Error ? error.message : JSON.stringify(error) }),
      })),
    },
  })
}

/**
 * The shutdown report, on stderr: always as JSON with --json; otherwise only when the run ended some other
 * way than an exit the program asked for with every cleanup ok — "everything was fine" is noise on a terminal.
 */
export function describeReport(
  flags: AgentFlags,
  report: ShutdownReport,
  recorder: Recorder,
): string | undefined {
  if (flags.json) return `${reportAsJson(report, recorder)}\n`
  const clean = report.reason.type === 'exit' && report.cleanups.every((c) => c.status === 'ok')
  return clean ? undefined : formatReport(report)
}

/** `1 fsync`, `3 fsyncs`. */
function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
}
