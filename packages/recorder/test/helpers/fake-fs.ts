import { nodeFs, type RecorderFs } from '../../src/util/recorder-fs.js'

type AsyncName =
  'forgetDir' | 'mkdir' | 'open' | 'write' | 'fdatasync' | 'fstat' | 'lstat' | 'read' | 'close' | 'syncDir'
type SyncName =
  | 'mkdirSync'
  | 'openSync'
  | 'writeSync'
  | 'fdatasyncSync'
  | 'fstatSync'
  | 'lstatSync'
  | 'readSync'
  | 'closeSync'
  | 'syncDirSync'

export interface FakeFs extends RecorderFs {
  /** Calls per operation since creation (or the last `reset`). */
  readonly calls: Record<AsyncName | SyncName, number>
  /** Sum of the synchronous calls. */
  syncCalls(): number
  /** Most async calls that were in flight at once. */
  readonly maxInFlight: number
  resetCounts(): void
}

export interface FakeFsPlan {
  /** Replaces one operation; receives the real implementation to delegate to. */
  readonly overrides?: Partial<{ [K in keyof RecorderFs]: (real: RecorderFs[K]) => RecorderFs[K] }>
  /** Resolves every async call after this many milliseconds (widens race windows). */
  readonly delayMs?: number
}

/** An errno-style error, like the ones node:fs produces. */
export function errno(code: string, syscall = 'write'): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: injected failure, ${syscall}`), { code, syscall, errno: -1 })
}

/**
 * The real file system, counted, with any operation replaceable: the @internal `fs` seam of the recorder
 * is how tests inject ENOSPC, partial writes and EAGAIN without mocking modules.
 */
export function fakeFs(plan: FakeFsPlan = {}): FakeFs {
  const names = Object.keys(nodeFs) as Array<keyof RecorderFs>
  const calls = Object.fromEntries(names.map((name) => [name, 0])) as Record<keyof RecorderFs, number>
  let inFlight = 0
  let maxInFlight = 0
  const fake: Record<string, unknown> = {}
  for (const name of names) {
    const real = (nodeFs[name] as (...args: unknown[]) => unknown).bind(nodeFs)
    const override = plan.overrides?.[name] as
      ((real: unknown) => (...args: unknown[]) => unknown) | undefined
    const impl = override ? override(real) : real
    // forgetDir drops a memo entry: no file-system call, nothing to count or delay.
    if (name === 'forgetDir') {
      fake[name] = impl
      continue
    }
    fake[name] = name.endsWith('Sync')
      ? (...args: unknown[]) => {
          calls[name]++
          return impl(...args)
        }
      : async (...args: unknown[]) => {
          calls[name]++
          inFlight++
          maxInFlight = Math.max(maxInFlight, inFlight)
          try {
            if (plan.delayMs) await new Promise((resolve) => setTimeout(resolve, plan.delayMs))
            return await impl(...args)
          } finally {
            inFlight--
          }
        }
  }
  // defineProperties, not Object.assign: assign would copy the getter's value once instead of the getter.
  return Object.defineProperties(fake as unknown as FakeFs, {
    calls: { value: calls },
    syncCalls: {
      value: () => names.filter((name) => name.endsWith('Sync')).reduce((sum, name) => sum + calls[name], 0),
    },
    maxInFlight: { get: () => maxInFlight },
    resetCounts: {
      value: () => {
        for (const name of names) calls[name] = 0
        maxInFlight = inFlight
      },
    },
  })
}
