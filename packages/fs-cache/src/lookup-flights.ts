import type { Store, Kind, ValueOf } from './store.js'

interface Flight<V> {
  readonly promise: Promise<V>
}

/**
 * The async lookups in flight, shared: an identical lookup joins the one already asked of the file system
 * instead of making a second syscall. Each `invalidate()`/`clear()` detaches them and bumps the epoch: a
 * lookup started under an older epoch may describe the file system before the change, so its callers get
 * their answer but the store does not.
 */
export class LookupFlights {
  readonly #store: Store
  readonly #flights: { readonly [K in Kind]: Map<string, Flight<ValueOf<K>>> } = {
    stat: new Map(),
    lstat: new Map(),
    realpath: new Map(),
  }
  #epoch = 0
  /** Lookups that joined one in flight (`stats().inflightJoins`). */
  joins = 0

  constructor(store: Store) {
    this.#store = store
  }

  /** Bumped by every detach: an answer is stored only if the epoch it started under is still current. */
  get epoch(): number {
    return this.#epoch
  }

  /** The lookups in flight still answer their callers, store nothing, and are joined by no later call. */
  detach(): void {
    this.#epoch++
    this.#flights.stat.clear()
    this.#flights.lstat.clear()
    this.#flights.realpath.clear()
  }

  /**
   * A join of the identical lookup in flight, or a new one (`start`, which makes the syscall). `convert`
   * shapes the raw answer inside the one reaction that also stores it, and a failure passes through
   * untouched (no rethrow): each extra promise layer costs every miss, and misses are never cached, so
   * they are the path that must stay as cheap as the raw call.
   */
  share<K extends Kind, R>(
    kind: K,
    key: string,
    start: () => Promise<R>,
    convert: (raw: R) => ValueOf<K>,
  ): Promise<ValueOf<K>> {
    const flights = this.#flights[kind] as Map<string, Flight<ValueOf<K>>>
    const joined = flights.get(key)
    if (joined !== undefined) {
      this.joins++
      return joined.promise
    }
    const epoch = this.#epoch
    let started: Promise<R>
    try {
      started = start()
    } catch (err: unknown) {
      // An injected or exotic fs may throw synchronously; callers still get a rejection, as with fs.promises.
      started = Promise.reject(err instanceof Error ? err : new Error(String(err)))
    }
    const settle = (): void => {
      if (flights.get(key) === flight) flights.delete(key)
    }
    // A reaction on `started` itself runs before any caller's handler (those wait on the derived
    // promise), so a caller that retries from its catch block starts a fresh lookup, not a join.
    started.then(undefined, settle)
    const flight: Flight<ValueOf<K>> = {
      promise: started.then((raw) => {
        settle()
        const value = convert(raw)
        if (epoch === this.#epoch) this.#store.set(kind, key, value)
        return value
      }),
    }
    flights.set(key, flight)
    return flight.promise
  }
}
