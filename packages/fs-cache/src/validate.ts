/** One message template for every bad argument, so callers see the same shape everywhere. */
export function invalidArgument(name: string, expected: string, value: unknown): TypeError {
  const shown = typeof value === 'string' ? JSON.stringify(value) : String(value)
  return new TypeError(`Expected \`${name}\` to be ${expected}, got \`${shown}\` (${typeof value})`)
}

/** A path argument must be a non-empty string; anything else is a caller bug, thrown at the call. */
export function assertPath(name: string, value: unknown): asserts value is string {
  if (typeof value !== 'string' || value.length === 0)
    throw invalidArgument(name, 'a non-empty string', value)
}
