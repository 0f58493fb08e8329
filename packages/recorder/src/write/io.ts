import type { FileIdentity, RecorderFs } from '../util/recorder-fs.js'
import { sleepSync } from '../util/sleep-sync.js'
import { limited } from '../util/write-limiter.js'

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
export function* sleep(ms: number): Io<void> {
  yield { op: 'sleep', ms }
}
/** Returns true when the lock had been lost and was just taken again (the caller must re-check the file). */
export function* requireLock(): Io<boolean> {
  return (yield { op: 'lock' }) === true
}

/**
 * Thrown by {@link runAsync} when the run was taken over by a synchronous drain; it stops the loop. One shared
 * instance, compared by identity; it never reaches a caller.
 */
export const TAKEN_OVER = new Error('taken over by a synchronous drain')

export interface AsyncDriver {
  readonly fs: RecorderFs
  /** Waits until the lock is ours; throws why it is not. True when it was lost and has just been retaken. */
  readonly lock: () => Promise<boolean>
  /** False once a synchronous drain has taken the core's state over: this run must stop touching it. */
  readonly isCurrent: () => boolean
}

export interface SyncDriver {
  readonly fs: RecorderFs
  /** Throws unless the lock is ours right now (a synchronous drain cannot wait for it). */
  readonly lock: () => void
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
        void limited(() => driver.fs.close(input as number)).catch(ignore)
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
    case 'sleep':
      return sleepSync(op.ms)
    case 'lock':
      return driver.lock()
  }
}

function ignore(): void {
  // Closing a descriptor nobody adopted: nothing else to do if that fails.
}
