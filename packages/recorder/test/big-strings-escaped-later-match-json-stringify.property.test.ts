import fc from 'fast-check'
import { describe, expect, it } from 'vitest'

import { type LazyJson, stringifyLazily } from '../src/write/lazy-json.js'
import { textOf, unitAt, utf8BytesOf, wholeText } from '../src/write/lazy-json-text.js'
import { adversarialString as adversarial } from './helpers/adversarial-strings.js'

// The serializer is exercised with tiny thresholds, so that most strings fast-check makes are "big" and
// held by reference; the recorder uses 64 Ki code units (big-records-are-written-exactly covers that).
const THRESHOLDS = [1, 2, 5] as const

const key = fc.oneof(
  adversarial,
  fc.constantFrom('__proto__', 'constructor', 'toString', '0', '1', '10', '-1', 'length', ''),
)

/** Values JSON.stringify accepts, plus what it drops or rewrites (undefined, functions, symbols, NaN, -0). */
const { value } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    adversarial,
    fc.double(),
    fc.constantFrom(-0, Number.NaN, Infinity, -Infinity, 1e21, 5e-324, null, true, false),
    fc.constantFrom(undefined, () => 1, Symbol('s')),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(key, tie('value'), { maxKeys: 5 }),
    // Objects made with a __proto__ own key (JSON.parse does that; a literal would set the prototype).
    fc
      .tuple(tie('value'), tie('value'))
      .map(([own, other]) => JSON.parse(JSON.stringify({ ['__proto__']: own ?? null, other })) as unknown),
    tie('value').map((inner) => ({ toJSON: (k: string) => ({ k, inner }) })),
    tie('value').map((inner) => ({ toJSON: () => inner })),
    fc.date({ noInvalidDate: true }),
    adversarial.map((s) => ({ wrapped: new String(s), n: new Number(-0), b: new Boolean(false) })),
  ),
}))

const objectValue = fc.dictionary(key, value, { maxKeys: 6 })

function assemble(result: string | LazyJson): string {
  return typeof result === 'string' ? result : wholeText(result)
}

/** Cuts the text at the given fractions the way the queue does (never after a high surrogate). */
function assembleInSlices(lazy: LazyJson, fractions: readonly number[]): string {
  const cuts = [...new Set(fractions.map((f) => Math.floor(f * lazy.chars)))].sort((a, b) => a - b)
  const out: string[] = []
  let from = 0
  for (let to of [...cuts, lazy.chars]) {
    if (to < lazy.chars && to > from) {
      const unit = unitAt(lazy, to - 1)
      if (unit >= 0xd800 && unit <= 0xdbff) to--
    }
    if (to <= from) continue
    textOf(lazy, from, to, out)
    from = to
  }
  return out.join('')
}

describe.for(THRESHOLDS)('strings of %i code units or more held by reference', (threshold) => {
  it('give exactly JSON.stringify, whole and cut at any point', () => {
    fc.assert(
      fc.property(objectValue, fc.array(fc.double({ min: 0, max: 1, noNaN: true })), (data, cuts) => {
        const expected = JSON.stringify(data)
        const result = stringifyLazily(data, threshold)
        expect(assemble(result)).toBe(expected)
        if (typeof result !== 'string') {
          expect(assembleInSlices(result, cuts)).toBe(expected)
          expect(utf8BytesOf(result)).toBe(Buffer.byteLength(expected))
        }
      }),
      { numRuns: 400 },
    )
  })

  it('give exactly JSON.stringify for adversarial strings at any depth', () => {
    fc.assert(
      fc.property(adversarial, adversarial, (a, b) => {
        const data = { a, list: [a, b, { deep: [[b]] }], [a]: b }
        expect(assemble(stringifyLazily(data, threshold))).toBe(JSON.stringify(data))
      }),
      { numRuns: 400 },
    )
  })
})

describe('held strings', () => {
  it('split no surrogate pair across the escape slices of a long string', () => {
    // 256 Ki code units per slice: a pair straddling that boundary, then lone halves around it.
    const big = `${'a'.repeat(256 * 1024 - 1)}😀${'\ud800'}x${'\udc00'}${'b'.repeat(300_000)}😀`
    const data = { big, tail: ['\u2028', big] }
    const result = stringifyLazily(data, 64 * 1024)
    expect(typeof result).not.toBe('string')
    expect(assemble(result)).toBe(JSON.stringify(data))
    expect(utf8BytesOf(result as LazyJson)).toBe(Buffer.byteLength(JSON.stringify(data)))
  })

  it('call toJSON with its key once, and leave omitted values out as JSON.stringify does', () => {
    const calls: string[] = []
    const big = 'x'.repeat(10)
    const data = {
      when: { toJSON: (k: string) => (calls.push(k), big) },
      list: [{ toJSON: (k: string) => (calls.push(k), { big }) }, undefined, Symbol('s'), () => 0],
      gone: undefined,
      fn: () => 0,
    }
    const result = stringifyLazily(data, 5)
    expect(assemble(result)).toBe(`{"when":"${big}","list":[{"big":"${big}"},null,null,null]}`)
    expect(calls).toEqual(['when', '0'])
  })

  it('refuse a cycle and a BigInt with the TypeError JSON.stringify throws', () => {
    const cyclic: Record<string, unknown> = { big: 'x'.repeat(10) }
    cyclic.self = cyclic
    expect(() => stringifyLazily(cyclic, 5)).toThrow(TypeError)
    expect(() => stringifyLazily({ big: 'x'.repeat(10), n: 1n }, 5)).toThrow(TypeError)
  })
})
