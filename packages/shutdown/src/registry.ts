import type { CleanupFunction, CleanupPhase } from './options.js'

const PHASES: readonly CleanupPhase[] = ['first', 'normal', 'last']
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

/** Registered cleanups, handed out phase by phase, last-registered first. */
export class CleanupRegistry {
  // Every registered entry, in registration order; unregistering is O(1).
  readonly #entries = new Map<number, CleanupEntry>()
  // Per phase, the entries not yet taken, in registration order: taking the next one is a pop, and a
  // registration made during a pass is pushed, so it runs next within its phase (it is the newest).
  readonly #pending: Readonly<Record<CleanupPhase, CleanupEntry[]>> = { first: [], normal: [], last: [] }
  #nextId = 1
  #syncCount = 0

  add(entry: Omit<CleanupEntry, 'id' | 'state'>): CleanupEntry {
    const full: CleanupEntry = {
      id: this.#nextId++,
      name: entry.name,
      phase: entry.phase,
      timeoutMs: entry.timeoutMs,
      fn: entry.fn,
      sync: entry.sync,
      state: 'pending',
    }
    this.#entries.set(full.id, full)
    this.#pending[full.phase].push(full)
    if (full.sync !== undefined) this.#syncCount++
    return full
  }

  /** Returns `true` when the entry was still registered. */
  remove(entry: CleanupEntry): boolean {
    if (!this.#entries.delete(entry.id)) return false
    if (entry.sync !== undefined) this.#syncCount--
    // Searched from the end: what is unregistered is usually what was registered last (a per-task
    // cleanup), and a long-running agent that registers and unregisters must not grow the queue.
    const queue = this.#pending[entry.phase]
    const index = queue.lastIndexOf(entry)
    if (index !== -1) queue.splice(index, 1)
    return true
  }

  /** Default name of an anonymous cleanup: stable and unique within the registry. */
  get nextId(): number {
    return this.#nextId
  }

  /** Marks the next cleanup to run as `running` and returns it; `undefined` when none is pending. */
  takeNext(): CleanupEntry | undefined {
    for (const phase of PHASES) {
      const queue = this.#pending[phase]
      for (let entry = queue.pop(); entry !== undefined; entry = queue.pop()) {
        if (entry.state === 'pending') {
          entry.state = 'running'
          return entry
        }
      }
    }
    return undefined
  }

  /** Pending cleanups in the order a pass would run them: by phase, then reverse registration. */
  pendingInRunOrder(): CleanupEntry[] {
    return PHASES.flatMap((phase) =>
      this.#pending[phase].filter((entry) => entry.state === 'pending').reverse(),
    )
  }

  /** `true` when some registered cleanup has not been taken by a pass yet. */
  hasPending(): boolean {
    return PHASES.some((phase) => this.#pending[phase].some((entry) => entry.state === 'pending'))
  }

  /** Cleanups whose sync variant must still run on `'exit'`, in run order. */
  needingSync(): CleanupEntry[] {
    return [...this.#entries.values()]
      .filter((entry) => entry.sync !== undefined && entry.state !== 'settled')
      .sort((a, b) => PHASE_RANK[a.phase] - PHASE_RANK[b.phase] || b.id - a.id)
  }

  /** How many registered cleanups have a sync variant (decides whether an `'exit'` listener is needed). */
  get syncCount(): number {
    return this.#syncCount
  }
}
