import type { Writable } from 'node:stream'
import { inspect } from 'node:util'

import { formatReport } from './format-report.js'
import { reportHasProblems, type ShutdownReport } from './report.js'

/**
 * Where a shutdown speaks: the report goes to `onReport` once per exit (a forced exit racing the graceful
 * path gets the report already delivered), and short notes go to stderr, never throwing (at exit stderr
 * may be gone: there is nowhere left to report that).
 */
export class ReportChannel {
  readonly #stderr: Writable | null
  #onReport: (report: ShutdownReport) => void
  // The report delivered to onReport: once per exit, even when a forced exit races the graceful path.
  #reported: ShutdownReport | undefined

  /** `onReport` undefined: the default, which prints the report to stderr when something went wrong. */
  constructor(stderr: Writable | null, onReport: ((report: ShutdownReport) => void) | undefined) {
    this.#stderr = stderr
    this.#onReport = onReport ?? this.#defaultOnReport
  }

  /** Replaces the handler; `undefined` restores the default. */
  setHandler(handler: ((report: ShutdownReport) => void) | undefined): void {
    this.#onReport = handler ?? this.#defaultOnReport
  }

  /** Delivers `report` to onReport unless one was delivered already; returns the one delivered. */
  deliver(report: ShutdownReport): ShutdownReport {
    if (this.#reported) return this.#reported
    this.#reported = report
    try {
      this.#onReport(report)
    } catch (error) {
      this.writeStderr(`onReport threw: ${inspect(error)}\n`)
    }
    return report
  }

  writeStderr(text: string): void {
    const stderr = this.#stderr
    if (!stderr || stderr.destroyed || !stderr.writable) return
    try {
      stderr.write(text)
    } catch {
      // The last place to say something is gone; there is nowhere left to report this.
    }
  }

  readonly #defaultOnReport = (report: ShutdownReport): void => {
    if (reportHasProblems(report)) this.writeStderr(formatReport(report))
  }
}
