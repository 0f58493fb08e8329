import { randomUUID } from 'node:crypto'
import { getHeapStatistics } from 'node:v8'

import { invalidArgument } from '../util/invalid-argument.js'
import {
  DEFAULT_EXIT_DRAIN_MS,
  DEFAULT_FILE_CHECK_INTERVAL_MS,
  DEFAULT_LOCK_STALE_MS,
  DEFAULT_MAX_QUEUE_CHARS,
  DEFAULT_MAX_WRITE_BYTES,
  DEFAULT_META_DEBOUNCE_MS,
  MIN_LOCK_STALE_MS,
  type RecorderOptions,
  type ResolvedOptions,
  type WriterProfile,
} from '../options.js'
import { isValidSessionId } from '../format/record-format.js'
import { rejectUnknownOptions } from '../util/unknown-options.js'

/** Every key `createRecorder` reads; any other is rejected (see unknown-options.ts). */
const KNOWN_OPTIONS = [
  'dir',
  'sessionId',
  'resume',
  'fsync',
  'lock',
  'lockStaleMs',
  'maxQueueChars',
  'maxQueueBytes',
  'maxHeldChars',
  'overflow',
  'maxWriteBytes',
  'fileCheckIntervalMs',
  'meta',
  'metaDebounceMs',
  'exitDrainMs',
  'maxRecordBytes',
  'onError',
  'redact',
  'profile',
  'profileFields',
] as const satisfies ReadonlyArray<keyof RecorderOptions>
/** Accepted, never advertised in an error: `@internal` test seams. */
const TEST_SEAMS = ['fs'] as const satisfies ReadonlyArray<keyof RecorderOptions>

const FSYNC_MODES = ['never', 'flush', 'batch'] as const
const PROFILES = ['sessiontape', 'claude-code', 'qwen-code', 'codex'] as const
const PROFILE_FIELDS = ['cwd', 'version', 'gitBranch', 'userType', 'isSidechain'] as const
// What a profile writes when the caller says nothing: Claude's tools reject a line without these.
const DEFAULT_PROFILE_VERSION = '0.0.0'
const OVERFLOW_POLICIES = ['drain-sync', 'throw'] as const
// An envelope alone is about 170 bytes: a smaller limit would refuse every record.
const MIN_RECORD_BYTES = 256
// Below this a single ordinary record could not fit a write without being split.
const MIN_WRITE_BYTES = 1024

/** Validates every option synchronously, at the boundary, and fills in the defaults. */
export function resolveOptions(options: RecorderOptions): ResolvedOptions {
  if (options === null || typeof options !== 'object') throw invalidArgument('options', 'an object', options)
  rejectUnknownOptions(options, KNOWN_OPTIONS, 'createRecorder()', TEST_SEAMS)
  const { dir } = options
  if (typeof dir !== 'string' || dir.length === 0) throw invalidArgument('dir', 'a non-empty string', dir)
  if (dir.includes('\0')) throw invalidArgument('dir', 'a path without NUL bytes', dir)

  const resume = optionalBoolean('resume', options.resume, false)
  if (resume && options.sessionId === undefined) {
    throw invalidArgument('sessionId', 'the id of the session to resume when `resume` is true', undefined)
  }
  const sessionId = options.sessionId === undefined ? randomUUID() : options.sessionId
  if (!isValidSessionId(sessionId)) {
    throw invalidArgument(
      'sessionId',
      'letters, digits, `.`, `_` or `-`, starting with a letter or digit, at most 128 characters, without `..`',
      sessionId,
    )
  }

  return {
    dir,
    sessionId,
    resume,
    fsync: oneOf('fsync', options.fsync, FSYNC_MODES, 'flush'),
    lock: optionalBoolean('lock', options.lock, true),
    lockStaleMs: integerAtLeast('lockStaleMs', options.lockStaleMs, MIN_LOCK_STALE_MS, DEFAULT_LOCK_STALE_MS),
    maxQueueChars: queueBound(options.maxQueueChars, options.maxQueueBytes),
    maxHeldChars: integerAtLeast('maxHeldChars', options.maxHeldChars, 1, defaultMaxHeldChars()),
    overflow: oneOf('overflow', options.overflow, OVERFLOW_POLICIES, 'drain-sync'),
    maxWriteBytes: integerAtLeast(
      'maxWriteBytes',
      options.maxWriteBytes,
      MIN_WRITE_BYTES,
      DEFAULT_MAX_WRITE_BYTES,
    ),
    fileCheckIntervalMs: integerAtLeast(
      'fileCheckIntervalMs',
      options.fileCheckIntervalMs,
      0,
      DEFAULT_FILE_CHECK_INTERVAL_MS,
    ),
    meta: optionalBoolean('meta', options.meta, true),
    metaDebounceMs: integerAtLeast('metaDebounceMs', options.metaDebounceMs, 0, DEFAULT_META_DEBOUNCE_MS),
    exitDrainMs: integerAtLeast('exitDrainMs', options.exitDrainMs, 0, DEFAULT_EXIT_DRAIN_MS),
    maxRecordBytes:
      options.maxRecordBytes === undefined
        ? undefined
        : integerAtLeast('maxRecordBytes', options.maxRecordBytes, MIN_RECORD_BYTES, 0),
    onError: optionalFunction('onError', options.onError),
    redact: optionalFunction('redact', options.redact),
    ...resolveProfile(options.profile, options.profileFields),
    fs: options.fs,
  }
}

/** `maxQueueChars`, or its deprecated alias `maxQueueBytes` (one of them at most). */
function queueBound(chars: unknown, bytes: unknown): number {
  if (chars !== undefined && bytes !== undefined) {
    throw invalidArgument(
      'maxQueueBytes',
      'undefined when `maxQueueChars` is given (it is its old name)',
      bytes,
    )
  }
  if (bytes !== undefined) return integerAtLeast('maxQueueBytes', bytes, 1, DEFAULT_MAX_QUEUE_CHARS)
  return integerAtLeast('maxQueueChars', chars, 1, DEFAULT_MAX_QUEUE_CHARS)
}

/**
 * Held strings may take a quarter of V8's heap limit, counted at 2 bytes per code unit (a one-byte string
 * takes half that): read when a recorder is created, never at import.
 */
function defaultMaxHeldChars(): number {
  return Math.floor(getHeapStatistics().heap_size_limit / 4 / 2)
}

function resolveProfile(
  given: unknown,
  fields: unknown,
): { profile: WriterProfile; profileFields: Readonly<Record<string, unknown>> | undefined } {
  const profile = oneOf('profile', given, PROFILES, 'sessiontape')
  if (fields !== undefined && (fields === null || typeof fields !== 'object' || Array.isArray(fields))) {
    throw invalidArgument('profileFields', 'an object', fields)
  }
  const f = (fields ?? {}) as Record<string, unknown>
  rejectUnknownOptions(f, PROFILE_FIELDS, 'createRecorder() profileFields')
  if (profile === 'sessiontape') {
    if (fields !== undefined) {
      throw invalidArgument(
        'profileFields',
        "undefined unless `profile` is 'claude-code', 'qwen-code' or 'codex'",
        fields,
      )
    }
    return { profile, profileFields: undefined }
  }
  const text = (name: string, fallback: string): string => {
    const value = f[name]
    if (value === undefined) return fallback
    if (typeof value !== 'string') throw invalidArgument(`profileFields.${name}`, 'a string', value)
    return value
  }
  const common = {
    cwd: text('cwd', process.cwd()),
    version: text('version', DEFAULT_PROFILE_VERSION),
    gitBranch: text('gitBranch', ''),
  }
  if (profile === 'qwen-code' || profile === 'codex') {
    for (const name of ['userType', 'isSidechain']) {
      if (f[name] !== undefined)
        throw invalidArgument(`profileFields.${name}`, "undefined (a 'claude-code' field)", f[name])
    }
    return { profile, profileFields: common }
  }
  return {
    profile,
    profileFields: {
      isSidechain: optionalBoolean('profileFields.isSidechain', f.isSidechain, false),
      userType: text('userType', 'external'),
      ...common,
    },
  }
}

function optionalBoolean(name: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback
  if (typeof value !== 'boolean') throw invalidArgument(name, 'a boolean', value)
  return value
}

function oneOf<const T extends string>(name: string, value: unknown, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw invalidArgument(name, `one of ${allowed.map((a) => `'${a}'`).join(', ')}`, value)
  }
  return value as T
}

function integerAtLeast(name: string, value: unknown, min: number, fallback: number): number {
  if (value === undefined) return fallback
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw invalidArgument(name, `an integer >= ${min}`, value)
  }
  return value
}

function optionalFunction<F>(name: string, value: F | undefined): F | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'function') throw invalidArgument(name, 'a function', value)
  return value
}
