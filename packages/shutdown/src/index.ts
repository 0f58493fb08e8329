export {
  SIGNAL_NUMBERS,
  EXIT_CODE_FATAL,
  EXIT_CODE_SIGPIPE,
  exitCodeForSignal,
  isShutdownSignal,
  type ShutdownSignal,
} from './exit-codes.js'
export { createShutdown, Shutdown } from './shutdown.js'
export {
  getDefaultShutdown,
  registerCleanup,
  runExitCleanup,
  gracefulExit,
  installSignalHandlers,
  guardEpipe,
  installFatalHandlers,
  triggerShutdown,
  setReportHandler,
} from './default-shutdown.js'
export { handleExit, type FlushOnExit, type HandleExitOptions } from './graceful-preset.js'
export { formatReport } from './format-report.js'
export {
  ShutdownArgumentError,
  ShutdownError,
  CleanupTimeoutError,
  CleanupStalledError,
  ShutdownDeadlineError,
  ShutdownForcedError,
} from './errors.js'
export type { ShutdownErrorCode } from './errors.js'
export type { ShutdownReport, CleanupOutcome, CleanupStatus } from './report.js'
export { describeReason, type ShutdownReason } from './reason.js'
export type { Clock } from './clock.js'
export type {
  CleanupContext,
  CleanupFunction,
  CleanupOptions,
  CleanupPhase,
  EpipeOptions,
  FatalHandlerOptions,
  GracefulExitOptions,
  ProcessPort,
  RunCleanupOptions,
  ShutdownOptions,
  SignalHandlerOptions,
} from './options.js'
