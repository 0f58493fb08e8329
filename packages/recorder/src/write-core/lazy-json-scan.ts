/**
 * Strings at least this long (UTF-16 code units) are held by reference in a queued record and escaped later,
 * a slice per write, instead of inside `record()`. 64 Ki units escape in well under a millisecond, so the
 * synchronous part of `record()` never escapes more than that per string; chat-sized records (≈1 KB) have
 * no such string and keep the single native `JSON.stringify`.
 */
export const BIG_STRING_CHARS = 64 * 1024

// The scans are only hints (the serializer that follows is exact on its own), so they may give up. The
// cheap scan every record pays for answers "maybe" past MAX_DEPTH or QUICK_CONTAINERS containers; the
// thorough one, run only after a "maybe", gives up past MAX_DEPTH or FULL_CONTAINERS (then the record is
// stringified natively, as before). Both bounds also end a walk around a cycle, which the serializer or
// native JSON.stringify then reports.
const MAX_DEPTH = 64
const QUICK_CONTAINERS = 4096
const FULL_CONTAINERS = 1 << 20

/**
 * Whether `value` may hold a string of at least `threshold` code units. Cheap (no allocation for plain
 * objects: `for…in` walks V8's enum cache) because every record pays for it. Inherited enumerable keys
 * are visited too and toJSON is not applied: a wrong "yes" costs only {@link containersOfBigStrings}' time.
 */
export function mayHoldBigString(value: object, threshold: number): boolean {
  budget = QUICK_CONTAINERS
  return quick(value, threshold, 0)
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

let budget = 0
const GAVE_UP = 2

function quick(value: object, threshold: number, depth: number): boolean {
  for (const key in value) {
    const child = (value as Record<string, unknown>)[key]
    if (typeof child === 'string') {
      if (child.length >= threshold) return true
    } else if (typeof child === 'object' && child !== null) {
      if (--budget < 0 || depth >= MAX_DEPTH) return true
      if (quick(child, threshold, depth + 1)) return true
    }
  }
  return false
}

/** 1: a big string is beneath `value` (and `value` is in `found`); 0: none; GAVE_UP. */
function full(value: object, threshold: number, depth: number, found: Set<object>): number {
  let beneath = 0
  for (const key in value) {
    const child = (value as Record<string, unknown>)[key]
    if (typeof child === 'string') {
      if (child.length >= threshold) beneath = 1
    } else if (typeof child === 'object' && child !== null) {
      if (--budget < 0 || depth >= MAX_DEPTH) return GAVE_UP
      const below = full(child, threshold, depth + 1, found)
      if (below === GAVE_UP) return GAVE_UP
      beneath |= below
    }
  }
  if (beneath === 1) found.add(value)
  return beneath
}
