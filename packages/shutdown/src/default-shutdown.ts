import type { Writable } from 'node:stream'
import type { ShutdownSignal } from './exit-codes.js'
import type {
  CleanupFunction,
  CleanupOptions,
  EpipeOptions,
  FatalHandlerOptions,
  GracefulExitOptions,
  RunCleanupOptions,
  SignalHandlerOptions,
} from './options.js'
import type { ShutdownReport } from './report.js'
import { createShutdown, type Shutdown } from './shutdown.js'

// One default instance per process, even when two copies of this package are loaded (a process can only
// exit once). The key names the major version: a future incompatible shape must not be picked up.
const DEFAULT_KEY = Symbol.for('@sessiontape/shutdown/default@0')

/** The default instance behind the module-level functions, created on first use (importing does nothing). */
export function getDefaultShutdown(): Shutdown {
  const holder = globalThis as { [DEFAULT_KEY]?: Shutdown }
  return (holder[DEFAULT_KEY] ??= createShutdown())
}

/** `registerCleanup` on the default instance. */
export function registerCleanup(fn: CleanupFunction, options?: CleanupOptions): () => void {
  return getDefaultShutdown().registerCleanup(fn, options)
}

/** `runExitCleanup` on the default instance. */
export function runExitCleanup(options?: RunCleanupOptions): Promise<ShutdownReport> {
  return getDefaultShutdown().runExitCleanup(options)
}

/** `gracefulExit` on the default instance (`code` omitted: `process.exitCode`, else 0). */
export function gracefulExit(code?: number, options?: GracefulExitOptions): Promise<ShutdownReport> {
  return getDefaultShutdown().gracefulExit(code, options)
}

/** `installSignalHandlers` on the default instance. */
export function installSignalHandlers(options?: SignalHandlerOptions): () => void {
  return getDefaultShutdown().installSignalHandlers(options)
}

/** `guardEpipe` on the default instance. */
export function guardEpipe(stream: Writable, options?: EpipeOptions): () => void {
  return getDefaultShutdown().guardEpipe(stream, options)
}

/** `installFatalHandlers` on the default instance. */
export function installFatalHandlers(options?: FatalHandlerOptions): () => void {
  return getDefaultShutdown().installFatalHandlers(options)
}

/** `triggerShutdown` on the default instance. */
export function triggerShutdown(signal?: ShutdownSignal): void {
  getDefaultShutdown().triggerShutdown(signal)
}

/** `setReportHandler` on the default instance: the `onReport` hook for the module-level functions. */
export function setReportHandler(handler: ((report: ShutdownReport) => void) | undefined): void {
  getDefaultShutdown().setReportHandler(handler)
}
