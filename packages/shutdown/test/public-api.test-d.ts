// Type-level tests of the public surface, checked by `pnpm typecheck` (tsc over test/): the names the
// issue fixes, the shapes a consumer relies on, and misuse the compiler must refuse.
import { expectTypeOf } from 'vitest'
import {
  CleanupStalledError,
  createShutdown,
  formatReport,
  gracefulExit,
  guardEpipe,
  installFatalHandlers,
  installSignalHandlers,
  registerCleanup,
  runExitCleanup,
  setReportHandler,
  triggerShutdown,
  type CleanupContext,
  type CleanupStatus,
  type Shutdown,
  type ShutdownErrorCode,
  type ShutdownReport,
} from '@sessiontape/shutdown'

expectTypeOf(registerCleanup).returns.toEqualTypeOf<() => void>()
expectTypeOf(installSignalHandlers).returns.toEqualTypeOf<() => void>()
expectTypeOf(installFatalHandlers).returns.toEqualTypeOf<() => void>()
expectTypeOf(guardEpipe).returns.toEqualTypeOf<() => void>()
expectTypeOf(runExitCleanup).returns.toEqualTypeOf<Promise<ShutdownReport>>()
expectTypeOf(gracefulExit).returns.toEqualTypeOf<Promise<ShutdownReport>>()
expectTypeOf(formatReport).returns.toBeString()
expectTypeOf(setReportHandler).parameter(0).toEqualTypeOf<((report: ShutdownReport) => void) | undefined>()

expectTypeOf<CleanupContext['signal']>().toEqualTypeOf<AbortSignal>()
expectTypeOf<CleanupStatus>().toEqualTypeOf<'ok' | 'failed' | 'timed-out' | 'not-started'>()
expectTypeOf<ShutdownReport['cleanups'][number]>().toHaveProperty('name').toBeString()
expectTypeOf<ShutdownReport['exitCode']>().toEqualTypeOf<number | null>()
expectTypeOf<ShutdownErrorCode>().toEqualTypeOf<
  'ERR_CLEANUP_TIMEOUT' | 'ERR_CLEANUP_STALLED' | 'ERR_SHUTDOWN_DEADLINE' | 'ERR_SHUTDOWN_FORCED'
>()
expectTypeOf(new CleanupStalledError('x').code).toEqualTypeOf<ShutdownErrorCode>()

// The consumer shape from the issue compiles as written.
registerCleanup(({ signal }) => signal.throwIfAborted(), {
  name: 'transcript',
  phase: 'last',
  sync: () => {},
})

expectTypeOf(createShutdown({ timeoutMs: 5000, stdout: null })).toEqualTypeOf<Shutdown>()
expectTypeOf<Parameters<Shutdown['triggerShutdown']>[0]>().toEqualTypeOf<
  'SIGHUP' | 'SIGINT' | 'SIGTERM' | 'SIGBREAK' | undefined
>()

// @ts-expect-error: unknown phase
registerCleanup(() => {}, { phase: 'end' })
// @ts-expect-error: not a handled signal
triggerShutdown('SIGKILL')
// @ts-expect-error: secondSignal is 'force' | 'ignore'
installSignalHandlers({ secondSignal: 'exit' })

// Issue #13: a code is optional (process.exitCode ?? 0), signals can opt out of re-raising, and a held
// process.exit() is a reason of its own.
expectTypeOf(gracefulExit).parameter(0).toEqualTypeOf<number | undefined>()
expectTypeOf(createShutdown({ reraiseSignals: false })).toEqualTypeOf<Shutdown>()
expectTypeOf<Extract<ShutdownReport['reason'], { type: 'process-exit' }>>().toEqualTypeOf<{
  readonly type: 'process-exit'
  readonly code: number
  readonly cleanup?: string
}>()
// @ts-expect-error: exit-hook's `wait` is `timeoutMs` here
registerCleanup(() => {}, { wait: 300 })
