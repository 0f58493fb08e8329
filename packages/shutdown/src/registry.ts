import type { CleanupFunction, CleanupPhase } from './options.js'

const PHASE_RANK: Readonly<Record<CleanupPhase, number>> = { first: 0, normal: 1, last: 2 }

export interface CleanupEntry {
  readonly id: number
  readonly name: string
  readonly phase: CleanupPhase
  /** `undefined`: use the instance default, resolved when the cleanup starts. */
  readonly timeoutMs: number | undefined
  readonly fn: CleanupFunction
  readonly sync: (() => void) | undefined
  /**
   * `pending` until a pass takes it; `running`; `settled` once it resolved or threw; `abandoned` when the
   * pass gave up on it (timeout, deadline, forced exit). Sync variants run for anything not `settled`.
   */
  state: 'pending' | 'running' | 'settled' | 'abandoned'
}

/** Registered cleanups in registration order, handed out phase by phase, last-registered first. */
export class CleanupRegistry {
  // A Map keeps registration order and makes unregistering O(1).
  readonly #entries = new Map<number, CleanupEntry>()
  #nextId = 1

  add(entry: Omit<CleanupEntry, 'id' | 'state'>): CleanupEntry {
    const full: CleanupEntry = { ...entry, id: this.#nextId++, state: 'pending' }
    this.#entries.set(full.id, full)
    return full
  }

  /** Returns `true` when the entry was still registered. */
  remove(entry: CleanupEntry): boolean {
    return this.#entries.delete(entry.id)
  }

  /** Default name of an anonymous cleanup: stable and unique within the registry. */
  get nextId(): number {
    return this.#nextId
  }

  /** Marks the next cleanup to run as `running` and returns it; `undefined` when none is pending. */
  takeNext(): CleanupEntry | undefined {
    const next = this.pendingInRunOrder()[0]
    if (next) next.state = 'running'
    return next
  }

  /** Pending cleanups in the order a pass would run them: by phase, then reverse registration. */
  pendingInRunOrder(): CleanupEntry[] {
    return this.#inRunOrder((entry) => entry.state === 'pending')
  }

  /** Cleanups whose sync variant must still run on `'exit'`, in run order. */
  needingSync(): CleanupEntry[] {
    return this.#inRunOrder((entry) => entry.sync !== undefined && entry.state !== 'settled')
  }

  get syncCount(): number {
    let count = 0
    for (const entry of this.#entries.values()) if (entry.sync !== undefined) count++
    return count
  }

  #inRunOrder(keep: (entry: CleanupEntry) => boolean): CleanupEntry[] {
    return [...this.#entries.values()]
      .filter(keep)
      .sort((a, b) => PHASE_RANK[a.phase] - PHASE_RANK[b.phase] || b.id - a.id)
  }
}
