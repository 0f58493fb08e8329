/** A value as the validation message template shows it: `got \`${describeValue(v)}\` (${typeof v})`. */
export function describeValue(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return value
    case 'number':
    case 'boolean':
    case 'bigint':
    case 'undefined':
      return String(value)
    case 'symbol':
      return value.toString()
    case 'function':
      return 'function'
    default:
      return value === null ? 'null' : Array.isArray(value) ? 'array' : 'object'
  }
}

/** Validates an optional `signal` option at the boundary, with the shared message template. */
export function checkSignal(given: unknown): AbortSignal | undefined {
  if (given === undefined || given instanceof AbortSignal) return given
  throw new TypeError(
    `Expected \`signal\` to be an AbortSignal, got \`${describeValue(given)}\` (${typeof given})`,
  )
}
