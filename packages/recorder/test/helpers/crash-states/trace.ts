import fs from 'node:fs'
import path from 'node:path'

import { nodeFs, type RecorderFs } from '../../../src/util/recorder-fs.js'

/**
 * One file-system operation whose effect a crash could keep or lose, as the crash-state explorer models it
 * (paths relative to the scenario's root, `/`-separated). Every write appends (the transcript is opened
 * O_APPEND; a sidecar's or repair copy's temp file is written from its start once), so a file's content is
 * the concatenation of its writes.
 */
export type TraceOp =
  /** One directory level made. */
  | { readonly kind: 'mkdir'; readonly path: string }
  /** A file created (empty) by an open with O_CREAT. */
  | { readonly kind: 'create'; readonly path: string }
  | { readonly kind: 'write'; readonly path: string; readonly bytes: Buffer }
  /** fdatasync/fsync of a file: its data so far is durable (its name is not). */
  | { readonly kind: 'fsync'; readonly path: string }
  /** fsync of a directory: every entry made in it so far is durable. */
  | { readonly kind: 'fsyncDir'; readonly path: string }
  | { readonly kind: 'rename'; readonly from: string; readonly to: string }
  | { readonly kind: 'link'; readonly from: string; readonly to: string }
  | { readonly kind: 'unlink'; readonly path: string }
  /**
   * Not a file-system call: a promise was just kept to the user (a flush with fsync resolved, a repair
   * returned). A crash after this point must not break it.
   */
  | { readonly kind: 'ack'; readonly label: string; readonly promise: Promise_ }

/** What an acknowledgement promised. */
export type Promise_ =
  /** These records are in the transcript `file`, once each. */
  | { readonly type: 'records'; readonly file: string; readonly uuids: readonly string[] }
  /** A complete file with exactly these records is at `file`. */
  | { readonly type: 'copy'; readonly file: string; readonly records: number }
  /** The sidecar at `file` says `recordCount` records. */
  | { readonly type: 'sidecar'; readonly file: string; readonly recordCount: number }

/** The operations a scenario issued, in the order they completed. */
export class Trace {
  readonly ops: TraceOp[] = []
  readonly root: string

  constructor(root: string) {
    this.root = path.resolve(root)
  }

  /** The path relative to the root, or null for a path outside it (not part of the scenario). */
  rel(target: string): string | null {
    const relative = path.relative(this.root, path.resolve(target))
    if (relative.startsWith('..') || path.isAbsolute(relative)) return null
    return relative.split(path.sep).join('/')
  }

  /** Set when the scenario's traced part is over: later calls (cleaning up) are not part of it. */
  stopped = false

  push(op: TraceOp): void {
    if (this.stopped) return
    const last = this.ops.at(-1)
    // A directory fsynced twice in a row (the seam and a traced syncDirectory both saw it) is one crash point.
    if (op.kind === 'fsyncDir' && last?.kind === 'fsyncDir' && last.path === op.path) return
    this.ops.push(op)
  }

  ack(label: string, promise: Promise_): void {
    this.ops.push({ kind: 'ack', label, promise })
  }

  toJSON(): unknown {
    return this.ops.map((op) => (op.kind === 'write' ? { ...op, bytes: op.bytes.toString('base64') } : op))
  }

  static fromJSON(root: string, ops: ReadonlyArray<Record<string, unknown>>): Trace {
    const trace = new Trace(root)
    for (const op of ops) {
      trace.ops.push(
        (op.kind === 'write' ? { ...op, bytes: Buffer.from(op.bytes as string, 'base64') } : op) as TraceOp,
      )
    }
    return trace
  }
}

/** The levels of `dir` that do not exist yet, outermost first. */
function missingLevels(dir: string): string[] {
  const missing: string[] = []
  for (let level = path.resolve(dir); ; level = path.dirname(level)) {
    if (fs.existsSync(level) || path.dirname(level) === level) break
    missing.unshift(level)
  }
  return missing
}

/**
 * The recorder's fs seam (`options.fs`), doing the real calls and writing each one's effect into `trace`.
 * A create is told from an open of an existing file by looking first; a `mkdir -p` is traced as the levels
 * it made.
 */
export function recordingFs(trace: Trace): RecorderFs {
  const names = new Map<number, string>()
  const note = (op: TraceOp): void => {
    if (!trace.stopped) trace.push(op)
  }
  const rel = (target: string): string | null => trace.rel(target)
  const mkdirs = (levels: readonly string[]): void => {
    for (const level of levels) {
      const r = rel(level)
      if (r !== null) note({ kind: 'mkdir', path: r })
    }
  }
  const opened = (target: string, flags: number, existed: boolean, fd: number): void => {
    const r = rel(target)
    if (r === null) return
    names.set(fd, r)
    if (!existed && (flags & fs.constants.O_CREAT) !== 0) note({ kind: 'create', path: r })
  }
  const wrote = (fd: number, buffer: Uint8Array, offset: number, written: number): void => {
    const r = names.get(fd)
    if (r !== undefined && written > 0)
      note({ kind: 'write', path: r, bytes: Buffer.from(buffer.subarray(offset, offset + written)) })
  }
  const synced = (fd: number): void => {
    const r = names.get(fd)
    if (r !== undefined) note({ kind: 'fsync', path: r })
  }
  const dirSynced = (dir: string): void => {
    const r = rel(dir)
    if (r !== null) note({ kind: 'fsyncDir', path: r })
  }
  return {
    ...nodeFs,
    mkdir: async (dir, mode) => {
      const levels = missingLevels(dir)
      await nodeFs.mkdir(dir, mode)
      mkdirs(levels)
    },
    mkdirSync: (dir, mode) => {
      const levels = missingLevels(dir)
      nodeFs.mkdirSync(dir, mode)
      mkdirs(levels)
    },
    open: async (target, flags, mode) => {
      const existed = fs.existsSync(target)
      const fd = await nodeFs.open(target, flags, mode)
      opened(target, flags, existed, fd)
      return fd
    },
    openSync: (target, flags, mode) => {
      const existed = fs.existsSync(target)
      const fd = nodeFs.openSync(target, flags, mode)
      opened(target, flags, existed, fd)
      return fd
    },
    write: async (fd, buffer, offset, length) => {
      const written = await nodeFs.write(fd, buffer, offset, length)
      wrote(fd, buffer, offset, written)
      return written
    },
    writeSync: (fd, buffer, offset, length) => {
      const written = nodeFs.writeSync(fd, buffer, offset, length)
      wrote(fd, buffer, offset, written)
      return written
    },
    fdatasync: async (fd) => {
      await nodeFs.fdatasync(fd)
      synced(fd)
    },
    fdatasyncSync: (fd) => {
      nodeFs.fdatasyncSync(fd)
      synced(fd)
    },
    syncDir: async (dir) => {
      await nodeFs.syncDir(dir)
      dirSynced(dir)
    },
    syncDirSync: (dir) => {
      nodeFs.syncDirSync(dir)
      dirSynced(dir)
    },
    close: async (fd) => {
      names.delete(fd)
      await nodeFs.close(fd)
    },
    closeSync: (fd) => {
      names.delete(fd)
      nodeFs.closeSync(fd)
    },
  }
}
