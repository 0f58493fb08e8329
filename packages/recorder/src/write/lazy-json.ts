import { types } from 'node:util'

import { containersOfBigStrings, mayHoldBigString } from './lazy-json-scan.js'

/** A string held by reference: written later as a JSON string literal, quotes included. */
export interface BigString {
  readonly raw: string
}

/** JSON text as is, or a {@link BigString}. */
export type LazyPart = string | BigString

/**
 * JSON text in which the big strings are not escaped yet. `chars` is what the parts stand for in the queue:
 * text as is, a big string as `raw.length + 2` (its quotes). That is a lower bound of the escaped length,
 * and it is what the record holds in memory until it is written: the caller's string itself.
 */
export interface LazyJson {
  readonly parts: readonly LazyPart[]
  readonly chars: number
  /**
   * UTF-8 bytes of the text parts, when they were counted as the parts were made (the incremental
   * serializer does, a part per slice): then measuring the record against `maxRecordBytes` does not have
   * to count them all in one task.
   */
  readonly textBytes?: number
}

/**
 * `JSON.stringify(value)`, byte for byte, except that every string of at least `threshold` code units is
 * kept by reference instead of being escaped now — when such strings add up to `total` code units (by
 * default: as soon as there is one). Returns the JSON as one string when no such string is
 * written (and whenever the structure is too deep or too big to scan: then it is exactly the native call).
 * A snapshot like JSON.stringify's: every property is read now; only the (immutable) strings wait.
 *
 * Containers on the path to a big string are walked here, in JavaScript, following the spec's
 * SerializeJSONProperty (toJSON with its key, omission of undefined, functions and symbols, `null` for
 * them in arrays, own enumerable keys in order, circular structures refused); everything else is handed
 * to native JSON.stringify whole. Throws what JSON.stringify throws (TypeError for a cycle or a BigInt).
 */
export function stringifyLazily(value: object, threshold: number, total = threshold): string | LazyJson {
  if (!mayHoldBigString(value, threshold, total)) return JSON.stringify(value)
  const containers = containersOfBigStrings(value, threshold, total)
  if (containers === null || !containers.has(value)) return JSON.stringify(value)
  const builder = new Builder(containers, threshold)
  if (!builder.property('', value)) return JSON.stringify(value)
  return builder.finish()
}

class Builder {
  readonly #containers: Set<object>
  readonly #threshold: number
  readonly #parts: LazyPart[] = []
  #text = ''
  #chars = 0
  // Containers being written (the spec's stack): meeting one again is a cycle.
  readonly #stack: object[] = []

  constructor(containers: Set<object>, threshold: number) {
    this.#containers = containers
    this.#threshold = threshold
  }

  finish(): string | LazyJson {
    if (this.#parts.length === 0) return this.#text
    this.#flush()
    return { parts: this.#parts, chars: this.#chars }
  }

  /** SerializeJSONProperty for a value already read from its holder; false: the value is omitted. */
  property(key: string, value: unknown): boolean {
    const resolved = resolveToJSON(key, value)
    if (isOmitted(resolved.value)) return false
    this.#resolved(resolved.value, resolved.fromToJSON)
    return true
  }

  /** Writes a value toJSON was already applied to, and that is not omitted. */
  #resolved(value: unknown, fromToJSON: boolean): void {
    if (typeof value === 'object' && value !== null) {
      // What toJSON returned is not asked for toJSON again: native JSON.stringify would ask, so an object
      // that has one is written here too.
      const own =
        this.#containers.has(value) ||
        (fromToJSON && typeof (value as { toJSON?: unknown }).toJSON === 'function')
      if (own) {
        if (Array.isArray(value)) return this.#array(value as unknown[])
        const primitive = unwrap(value)
        if (primitive === value) {
          if (isRawJSON?.(value) !== true) return this.#object(value)
        } else value = primitive
      }
    }
    if (typeof value === 'string' && value.length >= this.#threshold) return this.#big(value)
    // Native for everything else: primitives, wrapper objects, raw JSON, containers without a big string.
    this.#emit(JSON.stringify(value))
  }

  #object(value: object): void {
    this.#enter(value)
    let first = true
    this.#emit('{')
    for (const key of Object.keys(value)) {
      const child = (value as Record<string, unknown>)[key]
      // The key is written only once the value is known to be written (undefined and friends are omitted).
      const resolved = resolveToJSON(key, child)
      if (isOmitted(resolved.value)) continue
      this.#emit(`${first ? '' : ','}${JSON.stringify(key)}:`)
      first = false
      this.#resolved(resolved.value, resolved.fromToJSON)
    }
    this.#emit('}')
    this.#stack.pop()
  }

  #array(value: unknown[]): void {
    this.#enter(value)
    this.#emit('[')
    const length = value.length
    for (let i = 0; i < length; i++) {
      if (i > 0) this.#emit(',')
      if (!this.property(String(i), value[i])) this.#emit('null')
    }
    this.#emit(']')
    this.#stack.pop()
  }

  #enter(value: object): void {
    if (this.#stack.includes(value)) throw new TypeError('Converting circular structure to JSON')
    this.#stack.push(value)
  }

  #emit(text: string): void {
    this.#text += text
  }

  #big(raw: string): void {
    this.#flush()
    this.#parts.push({ raw })
    this.#chars += raw.length + 2
  }

  #flush(): void {
    if (this.#text.length === 0) return
    this.#parts.push(this.#text)
    this.#chars += this.#text.length
    this.#text = ''
  }
}

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
