import fs from 'node:fs'

/**
 * Counts file-system calls by wrapping the functions of the `node:fs` module object (and
 * `fs.promises.appendFile`), which every writer in the bench reaches at call time. Only outermost calls
 * count: `appendFileSync` is one sync call and one write, not the open/write/close it makes inside.
 */
export interface FsCounts {
  /** Synchronous fs API calls (`*Sync`). */
  sync: number
  /** Calls that write data: write, writev, writeSync, writevSync, appendFile(Sync), promises.appendFile. */
  writes: number
}

const WRITE_NAMES = new Set(['write', 'writev', 'writeSync', 'writevSync', 'appendFile', 'appendFileSync'])

export function installFsCounters(): { counts: FsCounts; reset: () => void } {
  const counts: FsCounts = { sync: 0, writes: 0 }
  let depth = 0
  const target = fs as unknown as Record<string, unknown>
  for (const name of Object.keys(fs)) {
    const original = target[name]
    if (typeof original !== 'function' || /^[A-Z]/.test(name)) continue
    const isSync = name.endsWith('Sync')
    const isWrite = WRITE_NAMES.has(name)
    if (!isSync && !isWrite) continue
    target[name] = function counted(this: unknown, ...args: unknown[]) {
      if (depth === 0) {
        if (isSync) counts.sync++
        if (isWrite) counts.writes++
      }
      depth++
      try {
        return (original as (...a: unknown[]) => unknown).apply(this, args)
      } finally {
        depth--
      }
    }
  }
  const promises = fs.promises as unknown as Record<string, unknown>
  const appendFile = promises.appendFile as (...a: unknown[]) => Promise<void>
  promises.appendFile = (...args: unknown[]) => {
    counts.writes++
    return appendFile(...args)
  }
  return {
    counts,
    reset: () => {
      counts.sync = 0
      counts.writes = 0
    },
  }
}
