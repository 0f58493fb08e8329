import { FsCacheArgumentError } from './errors.js'

/** One message template for every bad argument, so callers see the same shape everywhere. */
export function invalidArgument(name: string, expected: string, value: unknown): TypeError {
  const shown = typeof value === 'string' ? JSON.stringify(value) : String(value)
  return new FsCacheArgumentError(
    `Expected \`${name}\` to be ${expected}, got \`${shown}\` (${typeof value})`,
  )
}

/** A path argument must be a non-empty string; anything else is a caller bug, thrown at the call. */
export function assertPath(name: string, value: unknown): asserts value is string {
  if (typeof value !== 'string' || value.length === 0)
    throw invalidArgument(name, 'a non-empty string', value)
}

/** Directory permission bits: an integer in 0..0o7777. */
export function assertMode(name: string, value: unknown): asserts value is number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 0o7777)
    throw invalidArgument(name, 'an integer between 0 and 0o7777', value)
}

/** Options bags must be plain objects when given; `undefined` means "all defaults". */
export function assertOptions(name: string, value: unknown): asserts value is object | undefined {
  if (value !== undefined && (typeof value !== 'object' || value === null))
    throw invalidArgument(name, 'an object or undefined', value)
}
