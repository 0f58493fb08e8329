import { nodeFs, type FsAdapter } from '../../src/fs-adapter.js'

type Op = keyof FsAdapter

/**
 * The real file system behind a counter per call, with a hook to fail or delay chosen calls.
 * Counts are real: every number is one call into the underlying node:fs function.
 */
export interface CountingFs {
  readonly fs: FsAdapter
  readonly calls: Record<Op, number>
  /** Paths passed to each op, in order. */
  readonly log: { op: Op; path: string }[]
  /** Return an error to make that call fail with it (thrown or rejected, like node:fs). */
  failWith: ((op: Op, path: string) => NodeJS.ErrnoException | undefined) | undefined
  /** Awaited before async calls reach the file system, to hold a lookup in flight. */
  gate: Promise<void> | undefined
  reset(): void
}

export function errnoError(code: string, syscall: string, path: string): NodeJS.ErrnoException {
  const err: NodeJS.ErrnoException = new Error(`${code}: injected, ${syscall} '${path}'`)
  err.code = code
  err.syscall = syscall
  err.path = path
  return err
}

export function countingFs(): CountingFs {
  const zero = (): Record<Op, number> => ({
    stat: 0,
    lstat: 0,
    realpath: 0,
    mkdir: 0,
    readlink: 0,
    statSync: 0,
    lstatSync: 0,
    realpathSync: 0,
    mkdirSync: 0,
    readlinkSync: 0,
  })
  const state: CountingFs = {
    calls: zero(),
    log: [],
    failWith: undefined,
    gate: undefined,
    reset() {
      Object.assign(state.calls, zero())
      state.log.length = 0
      state.failWith = undefined
      state.gate = undefined
    },
    fs: undefined as unknown as FsAdapter,
  }
  const before = (op: Op, path: string): void => {
    state.calls[op]++
    state.log.push({ op, path })
    const err = state.failWith?.(op, path)
    if (err !== undefined) throw err
  }
  const async =
    <A extends unknown[], R>(op: Op, run: (path: string, ...rest: A) => Promise<R>) =>
    async (path: string, ...rest: A): Promise<R> => {
      const gate = state.gate
      before(op, path)
      if (gate !== undefined) await gate
      return run(path, ...rest)
    }
  const sync =
    <A extends unknown[], R>(op: Op, run: (path: string, ...rest: A) => R) =>
    (path: string, ...rest: A): R => {
      before(op, path)
      return run(path, ...rest)
    }
  ;(state as { fs: FsAdapter }).fs = {
    stat: async('stat', nodeFs.stat),
    lstat: async('lstat', nodeFs.lstat),
    realpath: async('realpath', nodeFs.realpath),
    mkdir: async('mkdir', nodeFs.mkdir),
    readlink: async('readlink', nodeFs.readlink),
    statSync: sync('statSync', nodeFs.statSync),
    lstatSync: sync('lstatSync', nodeFs.lstatSync),
    realpathSync: sync('realpathSync', nodeFs.realpathSync),
    mkdirSync: sync('mkdirSync', nodeFs.mkdirSync),
    readlinkSync: sync('readlinkSync', nodeFs.readlinkSync),
  }
  return state
}

/** A promise plus its resolver, to hold injected calls in flight until the test releases them. */
export function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void
  const promise = new Promise<void>((r) => (resolve = r))
  return { promise, resolve }
}
