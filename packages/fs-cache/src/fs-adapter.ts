import * as fs from 'node:fs'

/** The few `fs.Stats` fields this package reads; anything with them can stand in for `fs.Stats`. */
export interface FsStatsLike {
  isFile(): boolean
  isDirectory(): boolean
  isSymbolicLink(): boolean
  readonly size: number
  readonly mtimeMs: number
  readonly ctimeMs: number
  readonly ino: number
  readonly dev: number
}

/**
 * Every file-system call the package makes goes through this seam, so tests can count syscalls and
 * inject failures (EACCES, EIO…) without mocking modules.
 *
 * Test seam only, not public API; the shape may change without a major version.
 */
export interface FsAdapter {
  readonly stat: (path: string) => Promise<FsStatsLike>
  readonly lstat: (path: string) => Promise<FsStatsLike>
  /** Must be the native (libuv) realpath so async and sync agree (node#37737). */
  readonly realpath: (path: string) => Promise<string>
  readonly mkdir: (path: string, mode: number) => Promise<unknown>
  /** Used only by `isPathWithin` to follow a dangling symlink; never cached. */
  readonly readlink: (path: string) => Promise<string>
  /** With `throwIfNoEntry: false`, returns `undefined` instead of throwing ENOENT (8x cheaper than a throw). */
  readonly statSync: (path: string, options: StatSyncMode) => FsStatsLike | undefined
  readonly lstatSync: (path: string) => FsStatsLike
  /** Must be `fs.realpathSync.native`, the same implementation as the async `realpath`. */
  readonly realpathSync: (path: string) => string
  readonly mkdirSync: (path: string, mode: number) => unknown
  readonly readlinkSync: (path: string) => string
}

export interface StatSyncMode {
  readonly throwIfNoEntry: boolean
}
/** Shared option objects, so a sync lookup allocates none. */
export const THROW: StatSyncMode = Object.freeze({ throwIfNoEntry: true })
export const NO_THROW: StatSyncMode = Object.freeze({ throwIfNoEntry: false })

/**
 * The real file system. Both realpath modes use libuv's native `realpath(3)`. The lookups are the
 * node:fs functions themselves, not wrappers: every extra frame makes a failing call slower (a throw
 * unwinds through it, and the error's stack capture walks it), and failures are never cached.
 */
export const nodeFs: FsAdapter = {
  stat: fs.promises.stat,
  lstat: fs.promises.lstat,
  realpath: fs.promises.realpath,
  mkdir: (path, mode) => fs.promises.mkdir(path, { recursive: true, mode }),
  readlink: (path) => fs.promises.readlink(path),
  statSync: fs.statSync,
  lstatSync: fs.lstatSync,
  realpathSync: fs.realpathSync.native,
  mkdirSync: (path, mode) => fs.mkdirSync(path, { recursive: true, mode }),
  readlinkSync: (path) => fs.readlinkSync(path),
}
