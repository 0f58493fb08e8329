import path from 'node:path'

import type { FileIdentity, RecorderFs } from '../../util/recorder-fs.js'
import { sleepSync } from '../../util/sleep-sync.js'
import { errorCode } from '../../util/transient-errors.js'
import { limited } from '../../util/write-limiter.js'

/**
 * The write core's logic is written once, as generators that *describe* file-system calls instead of making
 * them (the "sans-I/O" shape: h11/h2 keep their protocol state machines free of I/O the same way). Two
 * small drivers execute what the generators yield: {@link runAsync} for the background loop (callbacks on
 * libuv's threadpool, under the process-wide cap) and {@link runSync} for the synchronous drains
 * (`flushSync()`, the overflow policy, the exit drain). The sync and async paths therefore never disagree:
 * there is one copy of every decision.
 *
 * Rule for the generators: state changes happen only in the synchronous stretches between two `yield`s, and
 * no generator relies on `finally`: an async run that a synchronous drain took over is simply dropped at
 * its pending `yield` and never resumed (see {@link runAsync}).
 */
export type IoOp =
  | { readonly op: 'mkdir'; readonly path: string; readonly mode: number }
  | { readonly op: 'forgetDir'; readonly path: string }
  | { readonly op: 'open'; readonly path: string; readonly flags: number; readonly mode: number }
  | {
      readonly op: 'write'
      readonly fd: number
      readonly buffer: Uint8Array
      readonly offset: number
      readonly length: number
    }
  | {
      readonly op: 'read'
      readonly fd: number
      readonly buffer: Uint8Array
      readonly offset: number
      readonly length: number
      readonly position: number
    }
  | { readonly op: 'fdatasync'; readonly fd: number }
  | { readonly op: 'fstat'; readonly fd: number }
  | { readonly op: 'lstat'; readonly path: string }
  | { readonly op: 'close'; readonly fd: number }
  /** fsync of a directory: the entries made in it survive a power cut. */
  | { readonly op: 'syncDir'; readonly path: string }
  | { readonly op: 'sleep'; readonly ms: number }
  /** The session lock must be ours: the async driver waits for an attempt to settle, the sync one cannot. */
  | { readonly op: 'lock' }

/** A procedure of the write core: yields calls, receives their results, returns `T`. */
export type Io<T> = Generator<IoOp, T, unknown>

// Typed wrappers, so a procedure reads like the calls it makes: `const stats = yield* fstat(fd)`.
export function* mkdir(path: string, mode: number): Io<void> {
  yield { op: 'mkdir', path, mode }
}
export function* forgetDir(path: string): Io<void> {
  yield { op: 'forgetDir', path }
}
export function* open(path: string, flags: number, mode: number): Io<number> {
  return (yield { op: 'open', path, flags, mode }) as number
}
export function* write(fd: number, buffer: Uint8Array, offset: number, length: number): Io<number> {
  return (yield { op: 'write', fd, buffer, offset, length }) as number
}
export function* read(
  fd: number,
  buffer: Uint8Array,
  offset: number,
  length: number,
  position: number,
): Io<number> {
  return (yield { op: 'read', fd, buffer, offset, length, position }) as number
}
export function* fdatasync(fd: number): Io<void> {
  yield { op: 'fdatasync', fd }
}
export function* fstat(fd: number): Io<FileIdentity> {
  return (yield { op: 'fstat', fd }) as FileIdentity
}
export function* lstat(path: string): Io<FileIdentity> {
  return (yield { op: 'lstat', path }) as FileIdentity
}
export function* close(fd: number): Io<void> {
  yield { op: 'close', fd }
}
export function* syncDir(path: string): Io<void> {
  yield { op: 'syncDir', path }
}
export function* sleep(ms: number): Io<void> {
  yield { op: 'sleep', ms }
}
/**
 * What taking the lock before a write found. `ok`: write. `recheck`: it had been lost and was just taken
 * again — the file must be checked (Custody decides) before anything is written. `reread`: it was overdue for
 * its refresh and its heartbeat has just confirmed it — the file may have changed during the wait, so it is
 * looked at again first.
 */
export type LockOutcome = 'ok' | 'recheck' | 'reread'
export function* requireLock(): Io<LockOutcome> {
  return (yield { op: 'lock' }) as LockOutcome
}

/**
 * The one owner of the durability of *names*. fdatasync makes a file's bytes durable, not the directory
 * entry that names it: after a power cut a file created, or a directory made, since its directory was last
 * fsynced may simply not exist — acknowledged records and all (fsync(2): "an explicit fsync() on a file
 * descriptor for the directory is also needed"). So, in a durable mode, every directory that gained an
 * entry of ours is remembered — the parent of each level a `mkdir -p` made, and the directory of a file
 * opened with O_CREAT — and {@link sync} fsyncs each once, before the sync that acknowledges records
 * resolves. A directory is synced once per entry made, not once per flush. Not durable (`fsync: 'never'`):
 * nothing is remembered and no extra call is made, not even the lstat that finds the missing levels.
 *
 * The mkdir memo is process-wide, so of two recorders making the same new directory only the first learns
 * which levels were made: those parents are also kept process-wide ({@link madeNotSynced}), and a sync syncs
 * every one of them above a directory it syncs anyway — whichever recorder flushes first pays for both.
 */
export class NewEntries {
  readonly durable: boolean
  // Directories holding an entry of ours made since they were last fsynced.
  readonly #pending = new Set<string>()

  constructor(durable: boolean) {
    this.durable = durable
  }

  /** Directories waiting for their fsync. */
  get pending(): number {
    return this.#pending.size
  }

  /** `mkdir -p dir`; the parent of every level it made is remembered for {@link sync}. */
  *makeDir(dir: string, mode: number): Io<void> {
    if (!this.durable) {
      yield* mkdir(dir, mode)
      return
    }
    // The levels missing before the mkdir are the ones it makes (the mkdir memo cannot say which it made).
    const missing: string[] = []
    for (let level = path.resolve(dir); ;) {
      try {
        yield* lstat(level)
        break
      } catch (error) {
        if (errorCode(error) !== 'ENOENT') break
      }
      missing.push(level)
      const parent = path.dirname(level)
      if (parent === level) break
      level = parent
    }
    yield* mkdir(dir, mode)
    for (const level of missing) {
      this.#pending.add(path.dirname(level))
      madeNotSynced.add(path.dirname(level))
    }
  }

  /** A file in `dir` was opened with O_CREAT: its name may be new (whether it was cannot be told). */
  opened(dir: string): void {
    if (this.durable) this.#pending.add(path.resolve(dir))
  }

  /** fsyncs every remembered directory, shallowest first (a crash midway leaves the upper levels durable). */
  *sync(): Io<void> {
    const own = [...this.#pending]
    const above = [...madeNotSynced].filter((made) => own.some((dir) => isWithin(made, dir)))
    const dirs = [...new Set([...own, ...above])].sort((a, b) => depth(a) - depth(b))
    for (const dir of dirs) {
      try {
        yield* syncDir(dir)
      } catch (error) {
        const code = errorCode(error)
        // Gone (removed since): the entry it would protect went with it; a recreated path is remembered anew.
        if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error
      }
      this.#pending.delete(dir)
      madeNotSynced.delete(dir)
    }
  }
}

// Parents of directory levels some durable recorder of this process made, not fsynced by anyone since.
// Bounded by the recorders alive: each leaves at most its directory's depth, removed by its first sync.
const madeNotSynced = new Set<string>()

function isWithin(ancestor: string, dir: string): boolean {
  if (dir === ancestor) return true
  return dir.startsWith(ancestor.endsWith(path.sep) ? ancestor : ancestor + path.sep)
}

function depth(dir: string): number {
  return dir.split(path.sep).length
}

/**
 * Thrown by {@link runAsync} when the run was taken over by a synchronous drain; it stops the loop. One shared
 * instance, compared by identity; it never reaches a caller.
 */
export const TAKEN_OVER = new Error('taken over by a synchronous drain')

export interface AsyncDriver {
  readonly fs: RecorderFs
  /** Waits until the lock is ours and provably fresh; throws why it is not. */
  readonly lock: () => Promise<LockOutcome>
  /** False once a synchronous drain has taken the core's state over: this run must stop touching it. */
  readonly isCurrent: () => boolean
}

export interface SyncDriver {
  readonly fs: RecorderFs
  /** Throws unless the lock is ours and provably fresh right now (a synchronous drain cannot wait for it). */
  readonly lock: () => LockOutcome
}

/**
 * Runs a procedure with asynchronous calls. After every call it asks whether the run is still current; if a
 * synchronous drain took over meanwhile, the procedure is dropped (never resumed) and a descriptor the
 * dropped call opened is closed here, since nobody adopted it. Rejects with {@link TAKEN_OVER} then.
 */
export async function runAsync<T>(procedure: Io<T>, driver: AsyncDriver): Promise<T> {
  let input: unknown
  let failure: { error: unknown } | null = null
  for (;;) {
    const step = failure === null ? procedure.next(input) : procedure.throw(failure.error)
    if (step.done === true) return step.value
    const op = step.value
    failure = null
    try {
      input = await execAsync(op, driver)
    } catch (error) {
      failure = { error }
    }
    if (!driver.isCurrent()) {
      if (failure === null && op.op === 'open')
        await limited(() => driver.fs.close(input as number)).catch(ignore)
      throw TAKEN_OVER
    }
  }
}

/** Runs a procedure with synchronous calls, to its end. */
export function runSync<T>(procedure: Io<T>, driver: SyncDriver): T {
  let input: unknown
  let failure: { error: unknown } | null = null
  for (;;) {
    const step = failure === null ? procedure.next(input) : procedure.throw(failure.error)
    if (step.done === true) return step.value
    failure = null
    try {
      input = execSync(step.value, driver)
    } catch (error) {
      failure = { error }
    }
  }
}

function execAsync(op: IoOp, driver: AsyncDriver): Promise<unknown> {
  const fs = driver.fs
  switch (op.op) {
    case 'mkdir':
      return limited(() => fs.mkdir(op.path, op.mode))
    case 'forgetDir':
      fs.forgetDir(op.path)
      return Promise.resolve()
    case 'open':
      return limited(() => fs.open(op.path, op.flags, op.mode))
    case 'write':
      return limited(() => fs.write(op.fd, op.buffer, op.offset, op.length))
    case 'read':
      return limited(() => fs.read(op.fd, op.buffer, op.offset, op.length, op.position))
    case 'fdatasync':
      return limited(() => fs.fdatasync(op.fd))
    case 'fstat':
      return limited(() => fs.fstat(op.fd))
    case 'lstat':
      return limited(() => fs.lstat(op.path))
    case 'close':
      return limited(() => fs.close(op.fd))
    case 'syncDir':
      return limited(() => fs.syncDir(op.path))
    case 'sleep':
      return new Promise((resolve) => setTimeout(resolve, op.ms))
    case 'lock':
      return driver.lock()
  }
}

function execSync(op: IoOp, driver: SyncDriver): unknown {
  const fs = driver.fs
  switch (op.op) {
    case 'mkdir':
      return fs.mkdirSync(op.path, op.mode)
    case 'forgetDir':
      return fs.forgetDir(op.path)
    case 'open':
      return fs.openSync(op.path, op.flags, op.mode)
    case 'write':
      return fs.writeSync(op.fd, op.buffer, op.offset, op.length)
    case 'read':
      return fs.readSync(op.fd, op.buffer, op.offset, op.length, op.position)
    case 'fdatasync':
      return fs.fdatasyncSync(op.fd)
    case 'fstat':
      return fs.fstatSync(op.fd)
    case 'lstat':
      return fs.lstatSync(op.path)
    case 'close':
      return fs.closeSync(op.fd)
    case 'syncDir':
      return fs.syncDirSync(op.path)
    case 'sleep':
      return sleepSync(op.ms)
    case 'lock':
      return driver.lock()
  }
}

function ignore(): void {
  // Closing a descriptor nobody adopted: nothing else to do if that fails.
}
