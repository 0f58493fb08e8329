/**
 * Strings at least this long (UTF-16 code units) may be held by reference in a queued record and escaped
 * later, a slice per write, instead of inside `record()`: they are, once such strings add up to
 * {@link LAZY_TOTAL_CHARS} in one record. Escaping 1 Mi code units takes 1.2 ms (base64) to 3.4 ms (text
 * with escapes and non-ASCII) on the 2-core reference VM and encoding them as much again, so a record whose
 * long strings stay under 1 Mi is stringified at once (the common case: chat records never get here), and a
 * bigger one costs `record()` only its structure. 64 Ki: a shorter string costs well under 0.2 ms.
 */
export const LONG_STRING_CHARS = 64 * 1024
export const LAZY_TOTAL_CHARS = 1024 * 1024

// The scans are only hints (the serializer that follows is exact on its own), so they may give up.
// - The cheap scan every record pays for answers "no" past MAX_DEPTH, QUICK_CONTAINERS containers or
//   QUICK_VISITS values: the record is then stringified natively (its structure is what costs there, and
//   `handOver` is what keeps that off the loop). 10⁵ small objects took 170 ms in `record()` when a thorough
//   scan followed, against 65 ms for JSON.stringify alone. One object of 10⁵ keys still costs ~30 ms here:
//   what `for…in` (or Object.keys) takes to list its keys before its first turn.
// - The thorough one, run only once the cheap one found long strings, gives up past MAX_DEPTH or
//   FULL_CONTAINERS (native again).
// Both bounds also end a walk around a cycle, which native JSON.stringify then reports.
const MAX_DEPTH = 64
const QUICK_CONTAINERS = 4096
const QUICK_VISITS = 16 * 1024
const FULL_CONTAINERS = 1 << 20

/**
 * Whether `value` may hold strings of at least `threshold` code units adding up to `total`. Cheap because
 * every record pays for it: no allocation, arrays by index (`for…in` would make a string of every index),
 * objects by `for…in` (V8's enum cache); about 100–200 ns for a ≈1 KB chat record. Inherited enumerable
 * keys are visited too and toJSON is not applied: a wrong "yes" costs only {@link containersOfBigStrings}'
 * time.
 */
export function mayHoldBigString(value: object, threshold: number, total = threshold): boolean {
  quickLeft = total
  quickVisits = QUICK_VISITS
  return quick(value, threshold, QUICK_CONTAINERS, 0) === FOUND
}

/**
 * The containers (objects and arrays) on the path from `value` to a string of at least `threshold` code
 * units, `value` included, when such strings add up to `total`; empty when they do not; `null` when the
 * structure is too deep or too big to tell (or cyclic).
 */
export function containersOfBigStrings(
  value: object,
  threshold: number,
  total = threshold,
): Set<object> | null {
  budget = FULL_CONTAINERS
  fullFound = 0
  const found = new Set<object>()
  if (full(value, threshold, 0, found) === GAVE_UP) return null
  return fullFound >= total ? found : new Set()
}

// Code units of long strings the quick scan must still find (it stops once they add up); those the
// thorough scan found.
let quickLeft = 0
let fullFound = 0
// Values the quick scan may still look at.
let quickVisits = 0

// What `quick` returns instead of the containers it may still enter. Too big or too deep to tell cheaply
// means no: such a record is stringified natively, as every record was before strings were held (its
// structure is what costs there; `handOver` is the way to keep it off the loop).
const FOUND = -1
const TOO_BIG = -2

/** The containers `quick` may still enter; FOUND or TOO_BIG (negative) once it knows. */
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
  if (--quickVisits < 0) return TOO_BIG
  if (typeof child === 'string') {
    if (child.length < threshold) return left
    quickLeft -= child.length
    return quickLeft <= 0 ? FOUND : left
  }
  if (typeof child !== 'object' || child === null) return left
  if (left === 0 || depth >= MAX_DEPTH) return TOO_BIG
  return quick(child, threshold, left - 1, depth + 1)
}

let budget = 0
const GAVE_UP = 2

/** 1: a big string is beneath `value` (and `value` is in `found`); 0: none; GAVE_UP. */
function full(value: object, threshold: number, depth: number, found: Set<object>): number {
  let beneath = 0
  const visit = (child: unknown): boolean => {
    if (typeof child === 'string') {
      if (child.length >= threshold) {
        beneath = 1
        fullFound += child.length
      }
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
