import { setImmediate as nextTurn } from 'node:timers/promises'

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'

import { HOLD_CHARS } from '../src/write/serialize/held-scan.js'
import {
  type HeldText,
  needsEscape,
  textOf as heldTextOf,
  unitAt,
  utf8BytesOf,
  wholeText,
} from '../src/write/serialize/held-text.js'
import { JsonWalk, stringifyHolding } from '../src/write/serialize/json-walk.js'
import { adversarialString as adversarial } from './helpers/adversarial-strings.js'

// One walk serializes every record (json-walk.ts): at once for a snapshot (`stringifyHolding`, one step
// with no deadline), in slices for data handed over. Strings of at least this many code units are held by
// reference. The tiny ones make most strings fast-check makes "held", so the held path and the walk it
// forces run on ordinary values; the last is the recorder's.
const THRESHOLDS = [1, 4, 16, HOLD_CHARS] as const
const REAL_THRESHOLD = HOLD_CHARS
// Sizes just past the serializer's switch from native JSON.stringify to walking (SMALL_KEYS, SMALL_NODES).
const BIG_KEYS = 65
const BIG_ITEMS = 513
// Far more steps than any value here needs, even one unit of progress per step: a guard, not a bound.
const MAX_STEPS = 10_000_000

/** How the deadline of each step is chosen. `offsets` are fast-check's, in milliseconds from now. */
interface Slicing {
  readonly name: string
  readonly deadline: (offsets: readonly number[], step: number) => number
}

const SLICINGS: readonly Slicing[] = [
  { name: 'deadline -Infinity at every step (the smallest slices)', deadline: () => -Infinity },
  { name: 'deadline Infinity (one step: the snapshot of record())', deadline: () => Infinity },
  {
    name: 'random deadlines around now',
    deadline: (offsets, step) => performance.now() + offsets[step % offsets.length]!,
  },
]

const offsets = fc.array(fc.oneof(fc.constant(-Infinity), fc.double({ min: -0.5, max: 0.2, noNaN: true })), {
  minLength: 1,
  maxLength: 6,
})
const threshold = fc.constantFrom(...THRESHOLDS)

type Outcome = { readonly text: string | undefined } | { readonly thrown: unknown }

function nativeOutcome(value: unknown): Outcome {
  try {
    return { text: JSON.stringify(value) }
  } catch (error) {
    return { thrown: error }
  }
}

function textOf(result: string | HeldText | undefined): string | undefined {
  return result === undefined || typeof result === 'string' ? result : wholeText(result)
}

/** Runs the serializer to the end with the given deadlines; what it wrote, or what it threw. */
function slicedOutcome(value: unknown, bigStringChars: number, deadline: (step: number) => number): Outcome {
  const job = new JsonWalk(value, bigStringChars)
  let steps = 0
  try {
    while (!job.step(deadline(steps))) {
      if (++steps > MAX_STEPS) break
    }
  } catch (error) {
    return { thrown: error }
  }
  expect(steps, 'step() never returned true').toBeLessThanOrEqual(MAX_STEPS)
  expect(job.step(-Infinity), 'a finished job stays finished').toBe(true)
  const text = textOf(job.result())
  expect(textOf(job.result()), 'result() twice gives the same text').toBe(text)
  return { text }
}

/** The same text as JSON.stringify, or the same error: TypeError for TypeError, the very value otherwise. */
function expectSameOutcome(actual: Outcome, expected: Outcome): void {
  if (!('thrown' in expected)) {
    expect(actual).toEqual(expected)
    return
  }
  expect(actual).toHaveProperty('thrown')
  const thrown = (actual as { thrown: unknown }).thrown
  if (expected.thrown instanceof TypeError) expect(thrown).toBeInstanceOf(TypeError)
  else expect(thrown).toBe(expected.thrown)
}

function check(value: unknown, bigStringChars: number, slicing: Slicing, steps: readonly number[]): void {
  // Native first: a value is read by each serializer in turn, and nothing here mutates it.
  const expected = nativeOutcome(value)
  expectSameOutcome(
    slicedOutcome(value, bigStringChars, (step) => slicing.deadline(steps, step)),
    expected,
  )
}

/** Keys: adversarial strings, and integer-like ones (written first, in numeric order) mixed with the rest. */
const key = fc.oneof(
  adversarial,
  fc.nat({ max: 20 }).map(String),
  fc.constantFrom(
    '__proto__',
    'constructor',
    'toString',
    'toJSON',
    'length',
    '',
    '-1',
    '01',
    '1.5',
    '4294967294',
    '4294967295',
    '9007199254740993',
  ),
)

/** Primitives and what JSON.stringify drops or rewrites: undefined, functions, symbols, NaN, ±Infinity, -0. */
const leaf = fc.oneof(
  adversarial,
  fc.double(),
  fc.integer(),
  fc.constantFrom(-0, Number.NaN, Infinity, -Infinity, 1e21, 5e-324, null, true, false),
  fc.constantFrom(undefined, () => 1, Symbol('s')),
  // Invalid dates included: their toJSON gives null.
  fc.date(),
)

class Point {
  x: unknown
  y: unknown
  // Neither private fields, statics, prototype getters nor methods are own enumerable properties.
  #secret = 'not written'
  static origin = 'not written'
  constructor(x: unknown, y: unknown) {
    this.x = x
    this.y = y
  }
  get norm(): string {
    return this.#secret
  }
  describe(): string {
    return this.#secret
  }
}

class Money {
  readonly cents: unknown
  constructor(cents: unknown) {
    this.cents = cents
  }
  toJSON(key: string): unknown {
    return { key, cents: this.cents }
  }
}

/** Puts `inserts` into `items` at the given places (a few complex values among many simple ones). */
function spliced<T>(items: T[], inserts: readonly (readonly [number, T])[]): T[] {
  for (const [at, item] of inserts) items.splice(at % (items.length + 1), 0, item)
  return items
}

function nested(depth: number, inner: unknown): unknown {
  let value = inner
  for (let level = 0; level < depth; level++) value = level % 2 === 0 ? [value] : { [`d${level}`]: value }
  return value
}

/** A transparent Proxy: every operation reaches the target, through traps. */
function proxied(value: unknown): object {
  return typeof value === 'object' && value !== null ? new Proxy(value, {}) : new Proxy([value], {})
}

/** A Proxy listing the target's keys in reverse: JSON.stringify follows the trap's order, not the usual one. */
function reversedKeys(value: unknown): object {
  const target = typeof value === 'object' && value !== null ? value : { z: value, 0: 'zero' }
  return new Proxy(target, { ownKeys: (t) => Reflect.ownKeys(t).reverse() })
}

/** Values JSON.stringify accepts, built of everything it treats specially. */
const { value } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { arbitrary: leaf, weight: 6 },
    { arbitrary: fc.array(tie('value'), { maxLength: 5 }), weight: 2 },
    { arbitrary: fc.dictionary(key, tie('value'), { maxKeys: 5 }), weight: 2 },
    // Holes, read as undefined and written as null.
    fc.sparseArray(tie('value'), { maxLength: 10, maxNumElements: 3 }),
    // Objects with a __proto__ own key, as JSON.parse makes them (a literal would set the prototype); an
    // assignment then sets that own key, not the prototype.
    fc.tuple(tie('value'), tie('value')).map(([own, other]) => {
      const object = JSON.parse('{"a":0,"__proto__":0,"other":0}') as Record<string, unknown>
      object['__proto__'] = own
      object.other = other
      return object
    }),
    // toJSON, called with its key; what it returns is written, but its own toJSON is not called again.
    tie('value').map((inner) => ({ toJSON: (k: string) => ({ k, inner }) })),
    tie('value').map((inner) => ({ toJSON: () => inner })),
    tie('value').map((inner) => ({ toJSON: (k: string) => ({ k, inner, toJSON: () => 'not called' }) })),
    tie('value').map((inner) => ({ toJSON: () => Object.assign([inner], { toJSON: () => 'not called' }) })),
    fc.date().map((date) => ({ toJSON: () => date })),
    // Wrapper objects: written as their primitive.
    fc
      .tuple(adversarial, fc.double(), fc.boolean())
      .map(([s, n, b]) => [new String(s), new Number(n), new Boolean(b)]),
    fc.tuple(tie('value'), tie('value')).map(([x, y]) => new Point(x, y)),
    tie('value').map((cents) => new Money(cents)),
    tie('value').map(proxied),
    tie('value').map(reversedKeys),
    // Past the small-container limits: walked, with the small members written by native in runs.
    fc
      .tuple(
        fc.array(leaf, { minLength: BIG_ITEMS, maxLength: 600 }),
        fc.array(fc.tuple(fc.nat(), tie('value')), { maxLength: 3 }),
      )
      .map(([items, inserts]) => spliced(items, inserts)),
    fc
      .tuple(
        fc.uniqueArray(fc.oneof(key, fc.string()), { minLength: BIG_KEYS, maxLength: 80 }),
        fc.array(leaf, { minLength: 80, maxLength: 80 }),
        fc.array(fc.tuple(fc.nat(), tie('value')), { maxLength: 3 }),
      )
      .map(([keys, values, inserts]) => {
        const entries = spliced(
          keys.map((k, i): [string, unknown] => [k, values[i]]),
          inserts.map(([at, v]): readonly [number, [string, unknown]] => [at, [keys[at % keys.length]!, v]]),
        )
        const object: Record<string, unknown> = {}
        for (const [k, v] of entries)
          Object.defineProperty(object, k, { value: v, enumerable: true, configurable: true, writable: true })
        return object
      }),
    // Many small objects: more nodes than one native call may take.
    fc.array(fc.dictionary(key, leaf, { maxKeys: 4 }), { minLength: 150, maxLength: 200 }),
    // Deeper than a small container may be.
    fc.tuple(fc.integer({ min: 15, max: 20 }), tie('value')).map(([depth, inner]) => nested(depth, inner)),
  ),
}))

/** fc.anything with everything it can make; a BigInt among it throws, as in JSON.stringify. */
const anything = fc.anything({
  maxDepth: 4,
  maxKeys: 8,
  key,
  values: [leaf],
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withObjectString: true,
  withSparseArray: true,
  withTypedArray: true,
})

function acceptedByJsonStringify(input: unknown): boolean {
  return !('thrown' in nativeOutcome(input))
}

/** JSON data with a big container now and then, to put an error into. */
const { plain } = fc.letrec((tie) => ({
  plain: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    {
      arbitrary: fc.oneof(adversarial, fc.double({ noNaN: true }), fc.boolean(), fc.constant(null)),
      weight: 4,
    },
    fc.array(tie('plain'), { maxLength: 5 }),
    fc.dictionary(key, tie('plain'), { maxKeys: 5 }),
    fc.array(fc.integer(), { minLength: BIG_ITEMS, maxLength: 600 }),
    fc.uniqueArray(fc.string(), { minLength: BIG_KEYS, maxLength: 80 }).map((keys) => {
      const object: Record<string, unknown> = {}
      for (const [i, k] of keys.entries())
        Object.defineProperty(object, k, { value: i, enumerable: true, configurable: true, writable: true })
      return object
    }),
  ),
}))

const POISONS = [
  'cycle',
  'cycle through an array',
  'cycle through a toJSON result',
  'BigInt',
  'BigInt wrapper',
  'throwing getter',
  'throwing toJSON',
  'revoked Proxy',
  'throwing get trap',
  'throwing ownKeys trap',
] as const
type Poison = (typeof POISONS)[number]

// Thrown by user code (getters, toJSON, traps): both serializers must throw this very value.
const USER_ERROR = new Error('thrown by user code')

function fail(): never {
  throw USER_ERROR
}

/** The containers of `root`, each as its path from the root: ancestors first, itself last. */
function containerPaths(root: object): (readonly object[])[] {
  const paths: object[][] = []
  const visit = (node: object, ancestors: readonly object[]): void => {
    const path = [...ancestors, node]
    paths.push(path)
    for (const child of Object.values(node) as unknown[]) {
      if (typeof child === 'object' && child !== null) visit(child, path)
    }
  }
  visit(root, [])
  return paths
}

function poisonValue(poison: Poison, ancestor: object): PropertyDescriptor {
  switch (poison) {
    case 'cycle':
      return { value: ancestor }
    case 'cycle through an array':
      return { value: [1, ancestor] }
    case 'cycle through a toJSON result':
      return { value: { toJSON: (k: string) => ({ k, back: [ancestor] }) } }
    case 'BigInt':
      return { value: 12345678901234567890n }
    case 'BigInt wrapper':
      return { value: Object(1n) as unknown }
    case 'throwing getter':
      return { get: fail }
    case 'throwing toJSON':
      return { value: { toJSON: fail } }
    case 'revoked Proxy': {
      const { proxy, revoke } = Proxy.revocable({ a: 1 }, {})
      revoke()
      return { value: proxy }
    }
    case 'throwing get trap':
      return { value: new Proxy({ a: 1 }, { get: fail }) }
    case 'throwing ownKeys trap':
      return { value: new Proxy({ a: 1 }, { ownKeys: fail }) }
  }
}

/** `{ data }` with one error put into one of its containers (a cycle goes back to one of its ancestors). */
const poisoned = fc
  .record({
    data: plain,
    poison: fc.constantFrom(...POISONS),
    where: fc.nat(),
    back: fc.nat(),
    at: fc.nat(),
    key,
  })
  .map(({ data, poison, where, back, at, key: name }) => {
    const root = { data }
    const paths = containerPaths(root)
    const path = paths[where % paths.length]!
    const node = path[path.length - 1]!
    const descriptor = poisonValue(poison, path[back % path.length]!)
    const slot = Array.isArray(node) ? String(at % (node.length + 1)) : name
    Object.defineProperty(node, slot, { ...descriptor, enumerable: true, configurable: true })
    return { root, poison }
  })

describe.for(SLICINGS)('handed-over data serialized with $name', (slicing) => {
  it('gives exactly JSON.stringify for values built of everything it treats specially', () => {
    fc.assert(
      fc.property(value, threshold, offsets, (data, big, steps) => check(data, big, slicing, steps)),
      { numRuns: 600 },
    )
  })

  it('gives exactly JSON.stringify for fc.jsonValue()', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), threshold, offsets, (data, big, steps) =>
        check(data, big, slicing, steps),
      ),
      { numRuns: 300 },
    )
  })

  it('gives exactly JSON.stringify for fc.anything() that JSON.stringify accepts', () => {
    fc.assert(
      fc.property(anything.filter(acceptedByJsonStringify), threshold, offsets, (data, big, steps) =>
        check(data, big, slicing, steps),
      ),
      { numRuns: 300 },
    )
  })

  it('throws what JSON.stringify throws for fc.anything() (BigInts included)', () => {
    fc.assert(
      fc.property(anything, threshold, offsets, (data, big, steps) => check(data, big, slicing, steps)),
      { numRuns: 300 },
    )
  })

  it('throws what JSON.stringify throws for a cycle, a BigInt, a throwing getter, toJSON or trap', () => {
    fc.assert(
      fc.property(poisoned, threshold, offsets, ({ root }, big, steps) => {
        const expected = nativeOutcome(root)
        expect(expected, 'the error is reached').toHaveProperty('thrown')
        expectSameOutcome(
          slicedOutcome(root, big, (step) => slicing.deadline(steps, step)),
          expected,
        )
      }),
      { numRuns: 500 },
    )
  })

  it('gives exactly JSON.stringify for 2,000 items of {id, name, ok, tags}', () => {
    const item = fc.record({
      id: fc.integer(),
      name: adversarial,
      ok: fc.boolean(),
      tags: fc.array(adversarial, { maxLength: 4 }),
    })
    fc.assert(
      fc.property(
        fc.array(item, { minLength: 2000, maxLength: 2000 }),
        threshold,
        offsets,
        (items, big, steps) => check({ items }, big, slicing, steps),
      ),
      { numRuns: 8 },
    )
  })

  it('gives exactly JSON.stringify for a flat object of 5,000 keys, integer-like ones among them', () => {
    fc.assert(
      fc.property(
        fc.array(leaf, { minLength: 5000, maxLength: 5000 }),
        threshold,
        offsets,
        (values, big, steps) => {
          const data: Record<string, unknown> = {}
          // Every seventh key integer-like (so written first, in numeric order), and a __proto__ own key.
          for (const [i, v] of values.entries()) data[i % 7 === 0 ? String(5000 - i) : `key ${i}`] = v
          Object.defineProperty(data, '__proto__', { value: 'own', enumerable: true })
          check(data, big, slicing, steps)
        },
      ),
      { numRuns: 8 },
    )
  })

  it('holds a string of 256 Ki code units by reference and escapes it exactly', () => {
    const big = `${'a'.repeat(REAL_THRESHOLD - 2)}"\\\u2028\u2029\ud800\u0000😀é${'b'.repeat(1000)}`
    const data = { big, list: [big, { big }], small: 'x', n: -0 }
    const job = new JsonWalk(data, REAL_THRESHOLD)
    let steps = 0
    while (!job.step(slicing.deadline([-Infinity, 0.1], steps))) steps++
    const result = job.result()
    expect(typeof result).toBe('object')
    expect(textOf(result)).toBe(JSON.stringify(data))
  })
})

describe('serialization in slices', () => {
  it('returns false many times before true for a 10⁵-item array once the deadline has passed', () => {
    const data = Array.from({ length: 100_000 }, (_, i) => i)
    const job = new JsonWalk(data, REAL_THRESHOLD)
    let slices = 0
    while (!job.step(performance.now())) slices++
    expect(slices).toBeGreaterThan(10)
    expect(textOf(job.result())).toBe(JSON.stringify(data))
  })

  it('returns false many times before true for 10⁵ small objects and for 10⁵ keys', () => {
    const items = Array.from({ length: 100_000 }, (_, i) => ({ id: i, ok: i % 2 === 0 }))
    const keys = Object.fromEntries(items.map(({ id }) => [`k${id}`, id]))
    for (const data of [{ items }, keys]) {
      const job = new JsonWalk(data, REAL_THRESHOLD)
      let slices = 0
      while (!job.step(performance.now())) slices++
      expect(slices).toBeGreaterThan(10)
      expect(textOf(job.result())).toBe(JSON.stringify(data))
    }
  })

  it('continues on later event-loop turns', async () => {
    const data = {
      items: Array.from({ length: 20_000 }, (_, i) => ({
        id: i,
        name: `n\u2028${i}`,
        tags: ['a', '\ud800'],
      })),
    }
    const job = new JsonWalk(data, 4)
    let turns = 0
    while (!job.step(performance.now())) {
      turns++
      await nextTurn()
    }
    expect(turns).toBeGreaterThan(10)
    expect(textOf(job.result())).toBe(JSON.stringify(data))
  })

  it('gives undefined where JSON.stringify does', () => {
    for (const data of [undefined, () => 1, Symbol('s'), { toJSON: () => undefined }]) {
      const job = new JsonWalk(data, 1)
      expect(job.step(-Infinity)).toBe(true)
      expect(job.result()).toBeUndefined()
    }
  })
})

describe('what JSON.stringify does exactly', () => {
  function sliced(data: unknown, bigStringChars = 1): Outcome {
    return slicedOutcome(data, bigStringChars, () => -Infinity)
  }

  it('calls toJSON once each, with its key, in the same order', () => {
    const calls: string[] = []
    const logged = (inner: unknown) => ({ toJSON: (k: string) => (calls.push(k), inner) })
    const data = {
      a: logged([logged('x'), 1, logged({ b: logged('yy') })]),
      big: Array.from({ length: 600 }, (_, i) => (i % 100 === 0 ? logged(i) : i)),
      wide: Object.fromEntries(Array.from({ length: 70 }, (_, i) => [`k${i}`, i % 10 === 0 ? logged(i) : i])),
    }
    const expected = JSON.stringify(data)
    const nativeCalls = calls.splice(0)
    expect(sliced(data)).toEqual({ text: expected })
    expect(calls).toEqual(nativeCalls)
  })

  it('does not call the toJSON of what a toJSON returned', () => {
    const inner = { toJSON: () => 'not called' }
    for (const data of [
      { toJSON: () => inner },
      { toJSON: () => ({ x: 1, toJSON: () => 'not called' }) },
      { toJSON: () => ({ toJSON: () => 'not called', s: 'held' }) },
      { toJSON: () => Object.assign([1, 2], { toJSON: () => 'not called' }) },
      { toJSON: () => new Date(0) },
    ]) {
      expect(sliced(data)).toEqual({ text: JSON.stringify(data) })
    }
  })

  it('follows the key order of a Proxy ownKeys trap, also in an object that is walked', () => {
    const target = { b: 1, 0: 2, c: { toJSON: () => 3 } }
    const reversed = new Proxy(target, { ownKeys: () => ['b', '0', 'c'] })
    expect(sliced(reversed)).toEqual({ text: JSON.stringify(reversed) })
    const wide = Object.fromEntries(Array.from({ length: 70 }, (_, i) => [`k${i}`, i]))
    const integerLast = new Proxy({ ...wide, 0: 'zero' }, { ownKeys: () => [...Object.keys(wide), '0'] })
    expect(sliced(integerLast, REAL_THRESHOLD)).toEqual({ text: JSON.stringify(integerLast) })
  })

  // Not JSON.stringify's read-once: a container is looked at before it is written (is it small enough for one
  // native call?), so a getter may be read twice. Handed-over data is data the caller does not change; a
  // getter returning a new value per read is a change. The text stays valid JSON holding one of its values.
  it('reads a getter that changes per read more than once, and still writes valid JSON holding one of its values', () => {
    const counting = () => {
      let reads = 0
      return {
        get a() {
          return ++reads
        },
        s: 'held',
      }
    }
    for (const threshold of [REAL_THRESHOLD, 1]) {
      const { text } = sliced(counting(), threshold) as { text: string }
      const parsed = JSON.parse(text) as { a: number; s: string }
      expect(parsed.s).toBe('held')
      expect([1, 2]).toContain(parsed.a)
    }
  })

  it('writes Proxy objects and arrays, and wrapper objects, as JSON.stringify does', () => {
    const data = {
      proxyObject: new Proxy({ a: 1, b: [2, 'three'] }, {}),
      proxyArray: new Proxy([1, 'two', { three: 3 }], {}),
      bigProxyArray: new Proxy(
        Array.from({ length: 600 }, (_, i) => i),
        {},
      ),
      wrappers: [new Number(-0), new String('s\u2028'), new Boolean(false), Object(Symbol('s')) as unknown],
    }
    for (const big of THRESHOLDS) expect(sliced(data, big)).toEqual({ text: JSON.stringify(data) })
  })

  it('throws a TypeError for Object(1n), and uses BigInt.prototype.toJSON when there is one', () => {
    expect(sliced({ a: Object(1n) as unknown })).toHaveProperty('thrown', expect.any(TypeError))
    Object.defineProperty(BigInt.prototype, 'toJSON', {
      value(this: bigint, k: string) {
        return `${this}n at ${k}`
      },
      configurable: true,
      writable: true,
    })
    try {
      const data = {
        a: 1n,
        list: [2n, Object(3n) as unknown],
        wide: Array.from({ length: 600 }, (_, i) => BigInt(i)),
      }
      expect(sliced(data)).toEqual({ text: JSON.stringify(data) })
    } finally {
      delete (BigInt.prototype as { toJSON?: unknown }).toJSON
    }
  })
})

/** Cuts the text at the given fractions the way the queue does (never after a high surrogate). */
function assembleInSlices(text: HeldText, fractions: readonly number[]): string {
  const cuts = [...new Set(fractions.map((f) => Math.floor(f * text.chars)))].sort((a, b) => a - b)
  const out: string[] = []
  let from = 0
  for (let to of [...cuts, text.chars]) {
    if (to < text.chars && to > from) {
      const unit = unitAt(text, to - 1)
      if (unit >= 0xd800 && unit <= 0xdbff) to--
    }
    if (to <= from) continue
    heldTextOf(text, from, to, out)
    from = to
  }
  return out.join('')
}

describe.for([1, 2, 5])('held text of strings of %i code units or more (the snapshot)', (holdChars) => {
  it('gives exactly JSON.stringify, whole, cut at any point, and measured in UTF-8', () => {
    fc.assert(
      fc.property(
        fc.dictionary(key, value, { maxKeys: 6 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true })),
        (data, cuts) => {
          const native = nativeOutcome(data)
          if ('thrown' in native) {
            expect(() => stringifyHolding(data, holdChars)).toThrow()
            return
          }
          const expected = native.text!
          const result = stringifyHolding(data, holdChars)
          expect(textOf(result)).toBe(expected)
          if (typeof result === 'object') {
            expect(assembleInSlices(result, cuts)).toBe(expected)
            expect(utf8BytesOf(result)).toBe(Buffer.byteLength(expected))
          }
        },
      ),
      { numRuns: 300 },
    )
  })
})

describe('held strings', () => {
  it('are left as they are exactly when JSON.stringify would leave them (the test before escaping a piece)', () => {
    const leftAsIs = (piece: string) => JSON.stringify(piece) === `"${piece}"`
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary-ascii' }), adversarial),
        (piece) => {
          expect(needsEscape(piece)).toBe(!leftAsIs(piece))
        },
      ),
      { numRuns: 2000 },
    )
    // Each character JSON.stringify escapes, alone and at either end of a long one-byte string.
    for (let code = 0; code < 0x10000; code++) {
      const char = String.fromCharCode(code)
      for (const piece of [char, `${char}${'A'.repeat(100)}`, `${'A'.repeat(100)}${char}`])
        expect(needsEscape(piece)).toBe(!leftAsIs(piece))
    }
  })

  it('split no surrogate pair across the escape pieces of a long string', () => {
    // 64 Ki code units per piece: a pair straddling that boundary, then lone halves around it.
    const big = `${'a'.repeat(64 * 1024 - 1)}😀${'\ud800'}x${'\udc00'}${'b'.repeat(300_000)}😀`
    const data = { big, tail: ['\u2028', big] }
    const result = stringifyHolding(data)
    expect(typeof result).toBe('object')
    expect(textOf(result)).toBe(JSON.stringify(data))
    expect(utf8BytesOf(result as HeldText)).toBe(Buffer.byteLength(JSON.stringify(data)))
  })
})
