import { describeError, describeReason } from './reason.js'
import type { ShutdownReport } from './report.js'

/**
 * Renders a report for humans, one cleanup per line, e.g.
 * ```
 * shutdown after SIGINT: exit 130, cleanups took 2004 ms (deadline exceeded)
 *   ok           mcp-clients    3 ms
 *   timed-out    telemetry   2001 ms  CleanupTimeoutError: Cleanup "telemetry" did not settle within its 2000 ms timeout
 *   not-started  transcript
 *   also: uncaughtException: Error: boom
 * ```
 */
export function formatReport(report: ShutdownReport): string {
  const notes = [report.deadlineExceeded ? 'deadline exceeded' : '', report.forced ? 'forced' : '']
    .filter(Boolean)
    .join(', ')
  const exit = report.exitCode === null ? 'no exit' : `exit ${report.exitCode}`
  const lines = [
    `shutdown after ${describeReason(report.reason)}: ${exit}, cleanups took ${Math.round(report.durationMs)} ms` +
      (notes ? ` (${notes})` : ''),
  ]
  const nameWidth = Math.max(0, ...report.cleanups.map((c) => c.name.length))
  for (const cleanup of report.cleanups) {
    const duration =
      cleanup.status === 'not-started' ? '' : `${Math.round(cleanup.durationMs)} ms`.padStart(8)
    const error = cleanup.error === undefined ? '' : `  ${describeError(cleanup.error)}`
    lines.push(
      `  ${cleanup.status.padEnd(12)} ${cleanup.name.padEnd(nameWidth)} ${duration}${error}`.trimEnd(),
    )
  }
  for (const later of report.laterReasons) lines.push(`  also: ${describeReason(later)}`)
  return lines.join('\n') + '\n'
}
