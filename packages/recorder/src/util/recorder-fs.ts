import fs from 'node:fs'

import { ensureDir, ensureDirSync, forgetDir } from '@sessiontape/fs-cache'

import { mkdirFailure, mkdirFailureSync } from './mkdir-cause.js'
import { syncDirectory, syncDirectorySync } from './sync-directory.js'

/** What the recorder needs to know about an open or named file. */
export interface FileIdentity {
  readonly dev: number
  readonly ino: number
  readonly size: number
  readonly isSymbolicLink: boolean
  /** A regular file (not a FIFO, socket, device or directory): the only kind the recorder writes. */
  readonly isFile: boolean
}

/**
 * Test seam only, not public API (its shape may change in any release): the file-system operations the
 * recorder performs, as one injectable object so tests can fail or delay any of them. The async half is the hot path; the sync half is used only by `createRecorder`'s
 * setup, `flushSync()`, the `drain-sync` overflow policy and the exit drain.
 */
export interface RecorderFs {
  /** `mkdir -p`; may be memoized process-wide on success (then {@link forgetDir} makes it run again). */
  mkdir(path: string, mode: number): Promise<void>
  /** The directory was found missing: forget any memo of it. */
  forgetDir(path: string): void
  open(path: string, flags: number, mode: number): Promise<number>
  write(fd: number, buffer: Uint8Array, offset: number, length: number): Promise<number>
  fdatasync(fd: number): Promise<void>
  fstat(fd: number): Promise<FileIdentity>
  lstat(path: string): Promise<FileIdentity>
  read(fd: number, buffer: Uint8Array, offset: number, length: number, position: number): Promise<number>
  close(fd: number): Promise<void>
  /**
   * fsync of a directory, so an entry made in it (a file created, a directory made, a name renamed or
   * linked) survives a power cut. A file system that cannot sync directories resolves quietly.
   */
  syncDir(path: string): Promise<void>

  mkdirSync(path: string, mode: number): void
  openSync(path: string, flags: number, mode: number): number
  writeSync(fd: number, buffer: Uint8Array, offset: number, length: number): number
  fdatasyncSync(fd: number): void
  fstatSync(fd: number): FileIdentity
  lstatSync(path: string): FileIdentity
  readSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: number): number
  closeSync(fd: number): void
  syncDirSync(path: string): void
}

function identity(stats: fs.Stats): FileIdentity {
  return {
    dev: stats.dev,
    ino: stats.ino,
    size: stats.size,
    isSymbolicLink: stats.isSymbolicLink(),
    isFile: stats.isFile(),
  }
}

/**
 * The real file system. Every call goes through the `node:fs` module object at call time (never a
 * destructured copy), so a benchmark that counts `fs` calls by wrapping them sees ours too.
 */
export const nodeFs: RecorderFs = {
  // Directories go through fs-cache's process-wide memo (success only): a server hosting many sessions in
  // one directory pays one mkdir, not one per recorder.
  mkdir: (path, mode) =>
    ensureDir(path, { mode }).catch(async (error: unknown) => {
      throw await mkdirFailure(path, error, mode)
    }),
  forgetDir: (path) => {
    forgetDir(path)
  },
  open: (path, flags, mode) =>
    new Promise((resolve, reject) =>
      fs.open(path, flags, mode, (error, fd) => (error ? reject(error) : resolve(fd))),
    ),
  write: (fd, buffer, offset, length) =>
    new Promise((resolve, reject) =>
      fs.write(fd, buffer, offset, length, null, (error, written) =>
        error ? reject(error) : resolve(written),
      ),
    ),
  fdatasync: (fd) =>
    new Promise((resolve, reject) => fs.fdatasync(fd, (error) => (error ? reject(error) : resolve()))),
  fstat: (fd) =>
    new Promise((resolve, reject) =>
      fs.fstat(fd, (error, stats) => (error ? reject(error) : resolve(identity(stats)))),
    ),
  lstat: (path) =>
    new Promise((resolve, reject) =>
      fs.lstat(path, (error, stats) => (error ? reject(error) : resolve(identity(stats)))),
    ),
  read: (fd, buffer, offset, length, position) =>
    new Promise((resolve, reject) =>
      fs.read(fd, buffer, offset, length, position, (error, bytesRead) =>
        error ? reject(error) : resolve(bytesRead),
      ),
    ),
  close: (fd) =>
    new Promise((resolve, reject) => fs.close(fd, (error) => (error ? reject(error) : resolve()))),
  syncDir: (path) => syncDirectory(path),

  mkdirSync: (path, mode) => {
    try {
      ensureDirSync(path, { mode })
    } catch (error) {
      throw mkdirFailureSync(path, error, mode)
    }
  },
  openSync: (path, flags, mode) => fs.openSync(path, flags, mode),
  writeSync: (fd, buffer, offset, length) => fs.writeSync(fd, buffer, offset, length, null),
  fdatasyncSync: (fd) => fs.fdatasyncSync(fd),
  fstatSync: (fd) => identity(fs.fstatSync(fd)),
  lstatSync: (path) => identity(fs.lstatSync(path)),
  readSync: (fd, buffer, offset, length, position) => fs.readSync(fd, buffer, offset, length, position),
  closeSync: (fd) => fs.closeSync(fd),
  syncDirSync: (path) => syncDirectorySync(path),
}
