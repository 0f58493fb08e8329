/**
 * The one string-hold threshold: a string of at least this many UTF-16 code units is held by reference in
 * a queued record (see held-text.ts) and escaped when written, a piece per look at the clock, instead of
 * inside `record()` or inside a slice of the walk. 64 Ki: escaping a shorter string costs well under 0.2 ms
 * on the 2-core reference VM, so nothing shorter needs to wait; the same size is the walk's unit of "small".
 */
export const HOLD_CHARS = 64 * 1024

// The scan is only a hint (the walk that follows is exact on its own), so it may give up: past MAX_DEPTH
// or QUICK_VISITS values it answers "no" and the record is stringified natively, as every record was before
// strings were held (its structure is what costs there; `handOver` is what keeps that off the loop). The
// bounds also end a walk around a cycle, which native JSON.stringify then reports.
const MAX_DEPTH = 64
const QUICK_VISITS = 16 * 1024

/**
 * Whether `value` may hold a string of at least {@link HOLD_CHARS} code units. Cheap because every record
 * pays for it: no allocation, arrays by index (`for…in` would make a string of every index), objects by
 * `for…in` (V8's enum cache); about 100–200 ns for a ≈1 KB chat record. Inherited enumerable keys are
 * visited too and toJSON is not applied: a wrong "yes" costs only the walk's time.
 */
export function mayHoldString(value: object): boolean {
  visitsLeft = QUICK_VISITS
  return scan(value, 0) === FOUND
}

// Values the scan may still look at.
let visitsLeft = 0
const FOUND = 1
const NONE = 0
const TOO_BIG = -1

function scan(value: object, depth: number): number {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = scanChild(value[i], depth)
      if (found !== NONE) return found
    }
    return NONE
  }
  for (const key in value) {
    const found = scanChild((value as Record<string, unknown>)[key], depth)
    if (found !== NONE) return found
  }
  return NONE
}

function scanChild(child: unknown, depth: number): number {
  if (--visitsLeft < 0) return TOO_BIG
  if (typeof child === 'string') return child.length >= HOLD_CHARS ? FOUND : NONE
  if (typeof child !== 'object' || child === null) return NONE
  if (depth >= MAX_DEPTH) return TOO_BIG
  return scan(child, depth + 1)
}
