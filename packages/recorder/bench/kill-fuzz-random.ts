/**
 * The kill fuzz's only source of randomness: a small seeded generator (sfc32), so that a seed names the
 * same scenarios, record sizes and kill delays on every run. What a seed cannot pin is where the kernel
 * is when the SIGKILL lands; that is the point of the fuzz.
 */
export class Random {
  #a: number
  #b: number
  #c: number
  #d: number

  constructor(seed: number) {
    this.#a = 0x9e3779b9
    this.#b = 0x243f6a88
    this.#c = 0xb7e15162
    this.#d = seed >>> 0
    // sfc32's first outputs still show the seed's bits: discard them.
    for (let i = 0; i < 16; i++) this.next()
  }

  /** Uniform in [0, 1). */
  next(): number {
    const t = (((this.#a + this.#b) >>> 0) + this.#d) >>> 0
    this.#d = (this.#d + 1) >>> 0
    this.#a = this.#b ^ (this.#b >>> 9)
    this.#b = (this.#c + (this.#c << 3)) >>> 0
    this.#c = (this.#c << 21) | (this.#c >>> 11)
    this.#c = (this.#c + t) >>> 0
    return t / 4294967296
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1))
  }

  /** Real number in [min, max). */
  real(min: number, max: number): number {
    return min + this.next() * (max - min)
  }

  chance(probability: number): boolean {
    return this.next() < probability
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!
  }

  /** A 32-bit seed for a generator of its own (a child's, a session's). */
  seed(): number {
    return Math.floor(this.next() * 4294967296) >>> 0
  }
}

/** The seed of case `index` of a run seeded `seed`: a case replays alone with `--seed S --case N`. */
export function caseSeed(seed: number, index: number): number {
  let h = (seed ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0
  return (h ^ (h >>> 16)) >>> 0
}
