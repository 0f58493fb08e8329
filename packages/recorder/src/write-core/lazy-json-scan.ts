/**
 * Strings at least this long (UTF-16 code units) are held by reference in a queued record and escaped later,
 * a slice per write, instead of inside `record()`. 8 Mi units: below that, native `JSON.stringify` at
 * `record()` (a few ms for 2.5 MB) plus batched 4 MiB writes keeps up with a producer of big tool results
 * every loop turn; the lazy path writes such a record alone, in 1 Mi slices, and measured on the `big`
 * workload (2.5 MB records) it fell behind until the 64 MiB queue bound forced synchronous drains (loop max
 * 95–109 ms, 29–153 sync calls, with 64 Ki and 256 Ki–4 Mi thresholds/slices). Strings of 10–100 MB, where
 * native stringify costs 20–400 ms, are what the lazy path is for. Chat-sized records never reach it.
 */
export const BIG_STRING_CHARS = 8 * 1024 * 1024

// The scans are only hints (the serializer that follows is exact on its own), so they may give up. The
// cheap scan every record pays for answers "maybe" past MAX_DEPTH or QUICK_CONTAINERS containers; the
// thorough one, run only after a "maybe", gives up past MAX_DEPTH or FULL_CONTAINERS (then the record is
// stringified natively, as before). Both bounds also end a walk around a cycle, which the serializer or
// native JSON.stringify then reports.
const MAX_DEPTH = 64
const QUICK_CONTAINERS = 4096
const FULL_CONTAINERS = 1 << 20

/**
 * Whether `value` may hold a string of at least `threshold` code units. Cheap because every record pays for
 * it: no allocation, arrays by index (`for…in` would make a string of every index), objects by `for…in`
 * (V8's enum cache); about 100–200 ns for a ≈1 KB chat record. Inherited enumerable keys are visited too
 * and toJSON is not applied: a wrong "yes" costs only {@link containersOfBigStrings}' time.
 */
export function mayHoldBigString(value: object, threshold: number): boolean {
  return quick(value, threshold, QUICK_CONTAINERS, 0) < 0
}

/**
 * The containers (objects and arrays) on the path from `value` to a string of at least `threshold` code
 * units, `value` included; empty when there is none; `null` when the structure is too deep or too big to
 * tell (or cyclic).
 */
export function containersOfBigStrings(value: object, threshold: number): Set<object> | null {
  budget = FULL_CONTAINERS
  const found = new Set<object>()
  return full(value, threshold, 0, found) === GAVE_UP ? null : found
}

/** The containers `quick` may still enter; -1: a big string was found (or the scan gave up). */
function quick(value: object, threshold: number, left: number, depth: number): number {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      left = quickChild(value[i], threshold, left, depth)
      if (left < 0) return left
    }
    return left
  }
  for (const key in value) {
    left = quickChild((value as Record<string, unknown>)[key], threshold, left, depth)
    if (left < 0) return left
  }
  return left
}

function quickChild(child: unknown, threshold: number, left: number, depth: number): number {
  if (typeof child === 'string') return child.length >= threshold ? -1 : left
  if (typeof child !== 'object' || child === null) return left
  // Too big or too deep to tell cheaply: let the thorough scan decide.
  if (left === 0 || depth >= MAX_DEPTH) return -1
  return quick(child, threshold, left - 1, depth + 1)
}

let budget = 0
const GAVE_UP = 2

/** 1: a big string is beneath `value` (and `value` is in `found`); 0: none; GAVE_UP. */
function full(value: object, threshold: number, depth: number, found: Set<object>): number {
  let beneath = 0
  const visit = (child: unknown): boolean => {
    if (typeof child === 'string') {
      if (child.length >= threshold) beneath = 1
    } else if (typeof child === 'object' && child !== null) {
      if (--budget < 0 || depth >= MAX_DEPTH) return false
      const below = full(child, threshold, depth + 1, found)
      if (below === GAVE_UP) return false
      beneath |= below
    }
    return true
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!visit(value[i])) return GAVE_UP
  } else {
    for (const key in value) if (!visit((value as Record<string, unknown>)[key])) return GAVE_UP
  }
  if (beneath === 1) found.add(value)
  return beneath
}
