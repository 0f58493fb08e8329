import { RecorderArgumentError } from '../errors.js'

/** One message template for every bad argument, so callers see the same shape everywhere. */
export function invalidArgument(name: string, expected: string, value: unknown): TypeError {
  return new RecorderArgumentError(
    `Expected \`${name}\` to be ${expected}, got \`${show(value)}\` (${typeof value})`,
  )
}

function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value)
  if (typeof value === 'bigint') return `${value}n`
  if (typeof value === 'symbol') return value.toString()
  if (typeof value === 'function') return `[function ${value.name || 'anonymous'}]`
  if (value !== null && typeof value === 'object') return Array.isArray(value) ? '[array]' : '[object]'
  return String(value)
}
