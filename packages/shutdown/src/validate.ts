import { ShutdownArgumentError } from './errors.js'
import { isShutdownSignal, type ShutdownSignal } from './exit-codes.js'

// setTimeout clamps anything above 2^31 - 1 ms to 1 ms; refuse it instead of firing at once.
const MAX_TIMEOUT_MS = 2 ** 31 - 1

/** The one message template for bad arguments. */
function describe(value: unknown): string {
  let shown: string
  try {
    shown = typeof value === 'function' ? `[function ${value.name || 'anonymous'}]` : String(value)
  } catch {
    // A value whose toString throws (e.g. Object.create(null)) still deserves a message, not a second error.
    shown = Object.prototype.toString.call(value)
  }
  return `\`${shown}\` (${value === null ? 'null' : typeof value})`
}

export function fail(name: string, expected: string, value: unknown): never {
  throw new ShutdownArgumentError(`Expected \`${name}\` to be ${expected}, got ${describe(value)}`)
}

/** A timeout in milliseconds: a positive finite number no larger than setTimeout accepts. */
export function assertTimeout(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > MAX_TIMEOUT_MS) {
    fail(name, `a positive finite number of milliseconds (at most ${MAX_TIMEOUT_MS})`, value)
  }
  return value
}

/** A duration that may be zero (e.g. a de-duplication window that is switched off). */
export function assertDuration(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > MAX_TIMEOUT_MS) {
    fail(name, `a non-negative finite number of milliseconds (at most ${MAX_TIMEOUT_MS})`, value)
  }
  return value
}

/** A process exit code: an integer 0–255 (what a POSIX parent can observe). */
export function assertExitCode(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 255) {
    fail(name, 'an integer exit code from 0 to 255', value)
  }
  return value
}

export function assertFunction<T>(name: string, value: T): T {
  if (typeof value !== 'function') fail(name, 'a function', value)
  return value
}

export function assertOptionalFunction<T>(name: string, value: T): T {
  if (value !== undefined) assertFunction(name, value)
  return value
}

export function assertOptionalBoolean(name: string, value: unknown): boolean | undefined {
  if (value !== undefined && typeof value !== 'boolean') fail(name, 'a boolean', value)
  return value
}

export function assertString(name: string, value: unknown): string {
  if (typeof value !== 'string' || value.length === 0) fail(name, 'a non-empty string', value)
  return value
}

export function assertOneOf<T extends string>(name: string, value: unknown, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    fail(name, `one of ${allowed.map((a) => `'${a}'`).join(', ')}`, value)
  }
  return value as T
}

export function assertSignal(name: string, value: unknown): ShutdownSignal {
  if (!isShutdownSignal(value)) fail(name, "one of 'SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'", value)
  return value
}

export function assertSignals(name: string, value: unknown): readonly ShutdownSignal[] {
  if (!Array.isArray(value) || value.length === 0) fail(name, 'a non-empty array of signal names', value)
  return value.map((signal: unknown, index) => assertSignal(`${name}[${index}]`, signal))
}

/** Options objects may be omitted, but not replaced by something that is not an object. */
export function assertOptions(name: string, value: unknown): void {
  if (value !== undefined && (typeof value !== 'object' || value === null)) fail(name, 'an object', value)
}

/** Something with the stream methods `guardEpipe` uses (`on`, `removeListener`, `destroy`). */
export function assertWritable(name: string, value: unknown): void {
  const stream = value as { on?: unknown; removeListener?: unknown; destroy?: unknown } | null
  if (
    typeof stream !== 'object' ||
    stream === null ||
    typeof stream.on !== 'function' ||
    typeof stream.removeListener !== 'function' ||
    typeof stream.destroy !== 'function'
  ) {
    fail(name, 'a writable stream', value)
  }
}

export function assertArray(name: string, value: unknown): readonly unknown[] {
  if (!Array.isArray(value)) fail(name, 'an array', value)
  return value
}

/** An array of objects that each have the named methods. */
export function assertObjectsWith(
  name: string,
  value: unknown,
  methods: readonly string[],
): readonly unknown[] {
  if (!Array.isArray(value)) fail(name, 'an array', value)
  const expected = `an object with ${methods.map((m) => `${m}()`).join(' and ')}`
  for (const [index, item] of value.entries()) {
    const shaped = item as Record<string, unknown> | null
    if (typeof shaped !== 'object' || shaped === null) fail(`${name}[${index}]`, expected, item)
    for (const method of methods)
      if (typeof shaped[method] !== 'function') fail(`${name}[${index}]`, expected, item)
  }
  return value
}
