/** A method key only this package knows, so `resetAllForTest` can zero counters that users cannot. */
export const RESET_FOR_TEST: unique symbol = Symbol('fs-cache.resetForTest')

export interface Resettable {
  [RESET_FOR_TEST](): void
}

// Weak references: registering a cache for test resets must not keep it alive for the whole process.
const live = new Set<WeakRef<Resettable>>()
/** Sweep collected references every so many registrations, so the set stays as small as the live caches. */
const PRUNE_EVERY = 256
let sinceLastPrune = 0

export function register(instance: Resettable): void {
  live.add(new WeakRef(instance))
  if (++sinceLastPrune >= PRUNE_EVERY) {
    sinceLastPrune = 0
    for (const ref of live) if (ref.deref() === undefined) live.delete(ref)
  }
}

/**
 * Clears every cache, directory memo and counter this package has created (including the process-wide
 * `ensureDir` memo). Meant for `beforeEach` in tests; it replaces hand-rolled `_reset…ForTest` hooks.
 * In-flight lookups still settle for their callers but store nothing.
 */
export function resetAllForTest(): void {
  for (const ref of live) {
    const instance = ref.deref()
    if (instance === undefined) live.delete(ref)
    else instance[RESET_FOR_TEST]()
  }
}
