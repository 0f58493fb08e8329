import type { Writable } from 'node:stream'
import type { Shutdown } from './shutdown.js'
import { getDefaultShutdown } from './default-shutdown.js'
import { assertKnownKeys } from './known-keys.js'
import type { FatalHandlerOptions, SignalHandlerOptions } from './options.js'
import type { ShutdownReport } from './report.js'
import { assertObjectsWith, assertArray, assertOptionalFunction, assertOptions } from './validate.js'

/**
 * What the preset needs of a recorder (an `@sessiontape/recorder` `Recorder`, or anything shaped like it):
 * `close()` flushes and releases it, `flushSync()` is the last-chance write if someone calls
 * `process.exit()` directly.
 */
export interface FlushOnExit {
  close(): Promise<unknown>
  flushSync(): unknown
}

/** Options of `handleExit(options)`. */
export interface HandleExitOptions {
  /**
   * Flushed and closed in the `'last'` phase, after every other cleanup (which may still record), each as
   * a cleanup named `transcript` (`transcript-1`, `transcript-2`… for several), with `flushSync()` as its
   * synchronous variant.
   * @default []
   */
  readonly recorders?: readonly FlushOnExit[]
  /**
   * Receives the report of the exit (see `setReportHandler`).
   * @default writes `formatReport(report)` to stderr when anything went wrong
   */
  readonly onReport?: (report: ShutdownReport) => void
  /** Passed to `installSignalHandlers`. @default SIGINT, SIGTERM, SIGHUP (+ SIGBREAK on Windows) */
  readonly signals?: SignalHandlerOptions
  /**
   * Passed to `installFatalHandlers`; `false` leaves uncaught exceptions and unhandled rejections alone.
   * @default {} (an uncaught error is printed, the cleanups run, exit code 1)
   */
  readonly fatal?: FatalHandlerOptions | false
  /**
   * The streams guarded against EPIPE (`agent | head -1` is a normal ending, see `guardEpipe`); `false`:
   * none.
   * @default [process.stdout, process.stderr]
   */
  readonly epipe?: readonly Writable[] | false
  /** The instance to wire. @default the default instance of the module-level functions */
  readonly shutdown?: Shutdown
}

const KEYS = ['recorders', 'onReport', 'signals', 'fatal', 'epipe', 'shutdown']

/**
 * The whole exit wiring of an agent in one call (the shape of close-with-grace): signal handlers, fatal
 * handlers, EPIPE guards on stdout and stderr, a report handler, and a `'last'`-phase cleanup per recorder.
 * Returns its own undo, which removes all of it (the report handler goes back to the default).
 *
 * ```ts
 * const undo = handleExit({ recorders: [recorder] })
 * // … the agent's work …
 * await gracefulExit()
 * ```
 */
export function handleExit(options: HandleExitOptions = {}): () => void {
  assertOptions('options', options)
  assertKnownKeys('handleExit(options)', options, KEYS)
  const onReport = assertOptionalFunction('onReport', options.onReport)
  const recorders = (
    options.recorders === undefined
      ? []
      : assertObjectsWith('recorders', options.recorders, ['close', 'flushSync'])
  ) as readonly FlushOnExit[]
  if (options.fatal !== undefined && options.fatal !== false) assertOptions('fatal', options.fatal)
  const streams =
    options.epipe === false
      ? []
      : options.epipe === undefined
        ? [process.stdout, process.stderr]
        : assertArray('epipe', options.epipe)
  const shutdown = options.shutdown ?? getDefaultShutdown()

  const undos: Array<() => void> = []
  if (onReport !== undefined) {
    shutdown.setReportHandler(onReport)
    undos.push(() => shutdown.setReportHandler(undefined))
  }
  undos.push(shutdown.installSignalHandlers(options.signals))
  if (options.fatal !== false) undos.push(shutdown.installFatalHandlers(options.fatal))
  for (const stream of streams) undos.push(shutdown.guardEpipe(stream as Writable))
  recorders.forEach((recorder, index) => {
    undos.push(
      shutdown.registerCleanup(() => recorder.close(), {
        name: recorders.length === 1 ? 'transcript' : `transcript-${index + 1}`,
        phase: 'last',
        sync: () => void recorder.flushSync(),
      }),
    )
  })
  let undone = false
  return () => {
    if (undone) return
    undone = true
    for (const undo of undos.reverse()) undo()
  }
}
