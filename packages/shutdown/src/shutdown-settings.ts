import type { Writable } from 'node:stream'

import { systemClock, type Clock } from './clock.js'
import { assertKnownKeys, FOREIGN } from './known-keys.js'
import type { ProcessPort, ShutdownOptions } from './options.js'
import type { ShutdownReport } from './report.js'
import {
  assertDuration,
  assertOptionalBoolean,
  assertOptionalFunction,
  assertOptions,
  assertTimeout,
} from './validate.js'

const DEFAULT_TIMEOUT_MS = 5000
const DEFAULT_CLEANUP_TIMEOUT_MS = 2000
// exit-hook 5.1 settled on 1 s for its stdio flush; ours is carved out of the overall deadline instead.
const DEFAULT_DRAIN_TIMEOUT_MS = 1000
// npm/pnpm deliver one Ctrl-C twice within milliseconds; a human's second press takes far longer.
export const DEFAULT_DUPLICATE_WINDOW_MS = 200
// Windows kills a process about 10 s after its console closes (delivered as SIGHUP); finish well before.
export const WINDOWS_CONSOLE_CLOSE_BUDGET_MS = 8000
export const PHASES = ['first', 'normal', 'last'] as const

// The option names each call reads; anything else is rejected at the call (see known-keys.ts).
const SHUTDOWN_OPTIONS = [
  'timeoutMs',
  'cleanupTimeoutMs',
  'drainTimeoutMs',
  'onReport',
  'process',
  'stdout',
  'stderr',
  'clock',
  'reraiseSignals',
]
export const CLEANUP_OPTIONS = ['name', 'timeoutMs', 'phase', 'sync']
export const TIMEOUT_OPTIONS = ['timeoutMs']
export const SIGNAL_OPTIONS = ['signals', 'duplicateWindowMs', 'secondSignal']

/** `createShutdown()`'s options, validated, with their defaults. */
export interface ShutdownSettings {
  readonly timeoutMs: number
  readonly cleanupTimeoutMs: number
  readonly drainTimeoutMs: number
  /** undefined: the default (print the report to stderr when something went wrong). */
  readonly onReport: ((report: ShutdownReport) => void) | undefined
  readonly process: ProcessPort
  readonly stdout: Writable | null
  readonly stderr: Writable | null
  readonly clock: Clock
  readonly reraiseSignals: boolean
}

/** Validates `createShutdown(options)` at the call (a bad option throws a `ShutdownArgumentError`). */
export function resolveShutdownOptions(options: ShutdownOptions): ShutdownSettings {
  assertOptions('options', options)
  assertKnownKeys('createShutdown(options)', options, SHUTDOWN_OPTIONS, FOREIGN.createShutdown)
  return {
    timeoutMs: assertTimeout('timeoutMs', options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    cleanupTimeoutMs: assertTimeout(
      'cleanupTimeoutMs',
      options.cleanupTimeoutMs ?? DEFAULT_CLEANUP_TIMEOUT_MS,
    ),
    drainTimeoutMs: assertDuration('drainTimeoutMs', options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS),
    onReport: assertOptionalFunction('onReport', options.onReport),
    process: options.process ?? globalThis.process,
    stdout: options.stdout === undefined ? globalThis.process.stdout : options.stdout,
    stderr: options.stderr === undefined ? globalThis.process.stderr : options.stderr,
    clock: options.clock ?? systemClock,
    reraiseSignals: assertOptionalBoolean('reraiseSignals', options.reraiseSignals) ?? true,
  }
}
