/** A value as the validation message template shows it: `got \`${describeValue(v)}\` (${typeof v})`. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null'
  if (typeof value === 'object') return Array.isArray(value) ? 'array' : 'object'
  if (typeof value === 'function') return 'function'
  return String(value)
}
