import fs from 'node:fs'
import fsp from 'node:fs/promises'
import { syncBuiltinESMExports } from 'node:module'

import type { Trace } from './trace.js'

/**
 * Two writers of the recorder do not go through its fs seam: the meta sidecar (write-file-atomic, which
 * calls the `fs` module object's callback and `*Sync` functions) and `repairTranscript` (`node:fs/promises`
 * and its FileHandles). For the scenarios that exercise them, this traces those calls into the same
 * {@link Trace} by wrapping the module objects for the duration of the scenario (`syncBuiltinESMExports`
 * carries the wrappers to named ESM imports). `wanted` picks the paths to trace (relative to the root), so
 * the transcript, which the seam already traces, is not traced twice. Returns the undo.
 */
export function traceForeignCalls(trace: Trace, wanted: (relPath: string) => boolean): () => void {
  const files = new Map<number, string>()
  const dirs = new Map<number, string>()
  const pick = (target: fs.PathLike): string | null => {
    const r = trace.rel(String(target))
    return r !== null && wanted(r) ? r : null
  }
  const creating = (flags: unknown): boolean =>
    typeof flags === 'string' ? /[wa]/.test(flags) : ((flags as number) & fs.constants.O_CREAT) !== 0
  const opened = (target: fs.PathLike, flags: unknown, existed: boolean, fd: number): void => {
    const r = trace.rel(String(target))
    if (r === null) return
    if (fs.fstatSync(fd).isDirectory()) {
      dirs.set(fd, r)
      return
    }
    if (!wanted(r)) return
    files.set(fd, r)
    if (!existed && creating(flags)) trace.push({ kind: 'create', path: r })
  }
  const wrote = (fd: number, bytes: Buffer): void => {
    const r = files.get(fd)
    if (r !== undefined && bytes.length > 0) trace.push({ kind: 'write', path: r, bytes })
  }
  const synced = (fd: number): void => {
    const file = files.get(fd)
    if (file !== undefined) trace.push({ kind: 'fsync', path: file })
    const dir = dirs.get(fd)
    if (dir !== undefined) trace.push({ kind: 'fsyncDir', path: dir })
  }
  const closed = (fd: number): void => {
    files.delete(fd)
    dirs.delete(fd)
  }
  const bytesOf = (data: unknown, a: unknown, b: unknown, written: number): Buffer => {
    if (typeof data === 'string')
      return Buffer.from(data, typeof b === 'string' ? (b as BufferEncoding) : 'utf8').subarray(0, written)
    const view = data as Uint8Array
    const offset = typeof a === 'number' ? a : 0
    return Buffer.from(view.subarray(offset, offset + written))
  }

  const saved: Array<[object, string, unknown]> = []
  const patch = <T extends object>(target: T, name: string, wrap: (real: never) => unknown): void => {
    const real = (target as Record<string, unknown>)[name]
    saved.push([target, name, real])
    ;(target as Record<string, unknown>)[name] = wrap((real as () => unknown).bind(target) as never)
  }
  type Callback = (error: NodeJS.ErrnoException | null, value?: unknown) => void
  const withCallback =
    (
      real: (...args: unknown[]) => void,
      after: (args: unknown[], value: unknown, state: unknown) => void,
      before?: (args: unknown[]) => unknown,
    ) =>
    (...args: unknown[]): void => {
      const callback = args.pop() as Callback
      const state = before?.(args)
      real(...args, (error: NodeJS.ErrnoException | null, value?: unknown) => {
        if (error === null) after(args, value, state)
        callback(error, value)
      })
    }

  patch(fs, 'open', (real: (...args: unknown[]) => void) =>
    withCallback(
      real,
      ([target, flags], fd, existed) => opened(target as string, flags, existed as boolean, fd as number),
      ([target]) => fs.existsSync(target as string),
    ),
  )
  patch(fs, 'openSync', (real: (...args: unknown[]) => number) => (...args: unknown[]) => {
    const existed = fs.existsSync(args[0] as string)
    const fd = real(...args)
    opened(args[0] as string, args[1], existed, fd)
    return fd
  })
  patch(fs, 'write', (real: (...args: unknown[]) => void) =>
    withCallback(real, ([fd, data, a, b], written) =>
      wrote(fd as number, bytesOf(data, a, b, written as number)),
    ),
  )
  patch(fs, 'writeSync', (real: (...args: unknown[]) => number) => (...args: unknown[]) => {
    const written = real(...args)
    wrote(args[0] as number, bytesOf(args[1], args[2], args[3], written))
    return written
  })
  patch(fs, 'fsync', (real: (...args: unknown[]) => void) =>
    withCallback(real, ([fd]) => synced(fd as number)),
  )
  patch(fs, 'fsyncSync', (real: (fd: number) => void) => (fd: number) => {
    real(fd)
    synced(fd)
  })
  patch(fs, 'close', (real: (...args: unknown[]) => void) =>
    withCallback(
      real,
      () => {},
      ([fd]) => closed(fd as number),
    ),
  )
  patch(fs, 'closeSync', (real: (fd: number) => void) => (fd: number) => {
    closed(fd)
    real(fd)
  })
  const renamed = (from: fs.PathLike, to: fs.PathLike): void => {
    const a = pick(from)
    const b = pick(to)
    if (a !== null && b !== null) trace.push({ kind: 'rename', from: a, to: b })
  }
  patch(fs, 'rename', (real: (...args: unknown[]) => void) =>
    withCallback(real, ([from, to]) => renamed(from as string, to as string)),
  )
  patch(fs, 'renameSync', (real: (a: string, b: string) => void) => (a: string, b: string) => {
    real(a, b)
    renamed(a, b)
  })
  const unlinked = (target: fs.PathLike): void => {
    const r = pick(target)
    if (r !== null) trace.push({ kind: 'unlink', path: r })
  }
  patch(fs, 'unlink', (real: (...args: unknown[]) => void) =>
    withCallback(real, ([target]) => unlinked(target as string)),
  )
  patch(fs, 'unlinkSync', (real: (p: string) => void) => (p: string) => {
    real(p)
    unlinked(p)
  })

  // node:fs/promises, as repairTranscript uses it.
  patch(
    fsp,
    'open',
    (real: (...args: unknown[]) => Promise<fsp.FileHandle>) =>
      async (...args: unknown[]) => {
        const existed = fs.existsSync(args[0] as string)
        const handle = await real(...args)
        opened(args[0] as string, args[1] ?? 'r', existed, handle.fd)
        const fd = handle.fd
        const writeFile = handle.writeFile.bind(handle)
        const sync = handle.sync.bind(handle)
        const close = handle.close.bind(handle)
        handle.writeFile = async (data: Parameters<fsp.FileHandle['writeFile']>[0]) => {
          await writeFile(data)
          wrote(fd, typeof data === 'string' ? Buffer.from(data) : Buffer.from(data))
        }
        handle.sync = async () => {
          await sync()
          synced(fd)
        }
        handle.close = async () => {
          closed(fd)
          await close()
        }
        return handle
      },
  )
  patch(fsp, 'link', (real: (a: string, b: string) => Promise<void>) => async (a: string, b: string) => {
    await real(a, b)
    const from = pick(a)
    const to = pick(b)
    if (from !== null && to !== null) trace.push({ kind: 'link', from, to })
  })
  patch(fsp, 'rename', (real: (a: string, b: string) => Promise<void>) => async (a: string, b: string) => {
    await real(a, b)
    renamed(a, b)
  })
  patch(fsp, 'rm', (real: (p: string, o?: unknown) => Promise<void>) => async (p: string, o?: unknown) => {
    const existed = fs.existsSync(p)
    await real(p, o)
    if (existed) unlinked(p)
  })
  patch(
    fsp,
    'mkdir',
    (real: (p: string, o?: unknown) => Promise<unknown>) => async (p: string, o?: unknown) => {
      const existed = fs.existsSync(p)
      const made = await real(p, o)
      const r = pick(p)
      if (!existed && r !== null) trace.push({ kind: 'mkdir', path: r })
      return made
    },
  )
  syncBuiltinESMExports()
  return () => {
    for (const [target, name, real] of saved.reverse()) (target as Record<string, unknown>)[name] = real
    syncBuiltinESMExports()
  }
}
