// The parts of the spec's SerializeJSONProperty (ECMA-262 §25.5.2.2) that the walk (json-walk.ts) needs
// in JavaScript, where native JSON.stringify cannot be asked: toJSON, omission, wrapper objects, raw JSON.
import { types } from 'node:util'

/** The spec's step 2 of SerializeJSONProperty: an object's (or BigInt's) toJSON, called with the key. */
export function resolveToJSON(key: string, value: unknown): { value: unknown; fromToJSON: boolean } {
  if ((typeof value === 'object' && value !== null) || typeof value === 'bigint') {
    const toJSON = (value as { toJSON?: unknown }).toJSON
    if (typeof toJSON === 'function') return { value: toJSON.call(value, key) as unknown, fromToJSON: true }
  }
  return { value, fromToJSON: false }
}

/** What JSON.stringify leaves out of an object (and writes as `null` in an array). */
export function isOmitted(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol'
}

export const { isRawJSON } = JSON as { isRawJSON?: (value: unknown) => boolean }

/**
 * Step 4 of SerializeJSONProperty: a Number, String, Boolean or BigInt wrapper object is written as its
 * primitive (ToNumber/ToString as the spec says: they may call an overridden valueOf/toString; the
 * boolean and the BigInt are read from the internal slot). Anything else is returned as is. Node tells
 * the internal slots natively (`util.types`).
 */
export function unwrap(value: object): unknown {
  if (!types.isBoxedPrimitive(value)) return value
  if (types.isNumberObject(value)) return Number(value)
  if (types.isStringObject(value)) return String(value)
  if (types.isBooleanObject(value)) return BOOLEAN_VALUE_OF.call(value)
  if (types.isBigIntObject(value)) return BIGINT_VALUE_OF.call(value)
  return value
}

// Taken once, unbound: each is only ever called with `.call(value)` on a value that has its slot.
/* eslint-disable @typescript-eslint/unbound-method */
const BOOLEAN_VALUE_OF: (this: unknown) => unknown = Boolean.prototype.valueOf
const BIGINT_VALUE_OF: (this: unknown) => unknown = BigInt.prototype.valueOf
/* eslint-enable @typescript-eslint/unbound-method */
