import { createHash } from 'node:crypto'
import path from 'node:path'

import type { Promise_, TraceOp } from './trace.js'

/** A tree as a crash leaves it: relative path → a directory, or a file's bytes. */
export type Tree = Map<string, { readonly type: 'dir' } | { readonly type: 'file'; readonly data: Buffer }>

export interface CrashState {
  /** The crash came after the first `at` operations of the trace. */
  readonly at: number
  /** What of the not yet durable operations this state kept, for a reader of a violation. */
  readonly description: string
  readonly tree: Tree
  /** The promises made before the crash. */
  readonly promises: readonly Promise_[]
}

/**
 * The bounds of the enumeration (each is what keeps one scenario's states in the hundreds, not millions):
 * - directory operations not yet durable at a crash point: every subset of them persists, up to
 *   {@link MAX_FREE_ENTRY_OPS}; past that only the in-order prefixes (what a journaling file system's
 *   ordered metadata gives), so a long run of creates cannot explode;
 * - a file's bytes past its last fsync persist as a prefix cut at most {@link MAX_CUTS} places: at the
 *   durable length, at every write's end, and inside the first and last of those writes (a torn write);
 *   past the bound, the cuts of the first and last writes are kept;
 * - identical states (same tree, same promises) reached from different crash points are checked once.
 */
export const MAX_FREE_ENTRY_OPS = 10
export const MAX_CUTS = 8

interface Inode {
  readonly id: number
  /** Cumulative end offset of each write. */
  readonly ends: number[]
  readonly chunks: Buffer[]
  synced: number
}

type EntryOp =
  | { readonly index: number; readonly kind: 'mkdir'; readonly path: string }
  | { readonly index: number; readonly kind: 'create'; readonly path: string; readonly inode: Inode }
  | {
      readonly index: number
      readonly kind: 'link'
      readonly from: string
      readonly to: string
      readonly inode: Inode
    }
  | { readonly index: number; readonly kind: 'rename'; readonly from: string; readonly to: string }
  | { readonly index: number; readonly kind: 'unlink'; readonly path: string }

type Named = { readonly type: 'dir' } | { readonly type: 'file'; readonly inode: Inode }

const parentOf = (p: string): string => (p.includes('/') ? path.posix.dirname(p) : '')

function dirsOf(op: EntryOp): string[] {
  switch (op.kind) {
    case 'rename':
    case 'link':
      return [parentOf(op.from), parentOf(op.to)]
    default:
      return [parentOf(op.path)]
  }
}

function describeOp(op: EntryOp): string {
  switch (op.kind) {
    case 'rename':
    case 'link':
      return `${op.kind} ${op.from} → ${op.to}`
    default:
      return `${op.kind} ${op.path}`
  }
}

/**
 * Every state a crash could leave after a prefix of `ops`, applied to `initial` (the tree before the
 * scenario, taken as durable), under the persistence rules of POSIX on a journaling file system:
 * - a file's data is durable up to its last fsync; the bytes written after it persist as any prefix;
 * - an entry made in a directory (a create, a mkdir, a rename, a link, an unlink) is durable only once that
 *   directory is fsynced after it; until then it may or may not have persisted;
 * - a rename is atomic: the name has the old file or the new one, never neither or a mix.
 */
export function* crashStates(initial: Tree, ops: readonly TraceOp[]): Generator<CrashState> {
  for (let at = 0; at <= ops.length; at++) yield* statesAt(initial, ops, at)
}

function statesAt(initial: Tree, ops: readonly TraceOp[], at: number): CrashState[] {
  let nextInode = 0
  const fresh = (data?: Buffer): Inode => {
    const inode: Inode = { id: nextInode++, ends: [], chunks: [], synced: 0 }
    if (data !== undefined && data.length > 0) {
      inode.chunks.push(data)
      inode.ends.push(data.length)
      inode.synced = data.length
    }
    return inode
  }
  const start = new Map<string, Named>()
  for (const [p, entry] of initial)
    start.set(p, entry.type === 'dir' ? entry : { type: 'file', inode: fresh(entry.data) })
  // What the process saw: every operation applied. Writes and fsyncs go to the file its name held then.
  const live = new Map(start)
  const entryOps: EntryOp[] = []
  const dirSyncs = new Map<string, number[]>()
  const promises: Promise_[] = []
  for (let index = 0; index < at; index++) {
    const op = ops[index]!
    switch (op.kind) {
      case 'mkdir':
        entryOps.push({ index, kind: 'mkdir', path: op.path })
        live.set(op.path, { type: 'dir' })
        break
      case 'create': {
        const inode = fresh()
        entryOps.push({ index, kind: 'create', path: op.path, inode })
        live.set(op.path, { type: 'file', inode })
        break
      }
      case 'write': {
        const named = live.get(op.path)
        if (named?.type !== 'file')
          throw new Error(`trace writes to ${op.path}, which is not a file at that point`)
        const inode = named.inode
        inode.chunks.push(op.bytes)
        inode.ends.push((inode.ends.at(-1) ?? 0) + op.bytes.length)
        break
      }
      case 'fsync': {
        const named = live.get(op.path)
        if (named?.type === 'file') named.inode.synced = named.inode.ends.at(-1) ?? 0
        break
      }
      case 'fsyncDir':
        dirSyncs.set(op.path, [...(dirSyncs.get(op.path) ?? []), index])
        break
      case 'rename': {
        entryOps.push({ index, kind: 'rename', from: op.from, to: op.to })
        const moved = live.get(op.from)
        live.delete(op.from)
        if (moved !== undefined) live.set(op.to, moved)
        break
      }
      case 'link': {
        const named = live.get(op.from)
        if (named?.type !== 'file') break
        entryOps.push({ index, kind: 'link', from: op.from, to: op.to, inode: named.inode })
        live.set(op.to, named)
        break
      }
      case 'unlink':
        entryOps.push({ index, kind: 'unlink', path: op.path })
        live.delete(op.path)
        break
      case 'ack':
        promises.push(op.promise)
        break
    }
  }
  const durable = (op: EntryOp): boolean =>
    dirsOf(op).every((dir) => (dirSyncs.get(dir) ?? []).some((index) => index > op.index))
  const free = entryOps.filter((op) => !durable(op))
  const subsets: Array<ReadonlySet<EntryOp>> = []
  if (free.length <= MAX_FREE_ENTRY_OPS) {
    for (let mask = 0; mask < 1 << free.length; mask++)
      subsets.push(new Set(free.filter((_, i) => (mask >> i) & 1)))
  } else {
    for (let n = 0; n <= free.length; n++) subsets.push(new Set(free.slice(0, n)))
  }

  const states: CrashState[] = []
  for (const kept of subsets) {
    const names = new Map(start)
    const hasDir = (dir: string): boolean => dir === '' || names.get(dir)?.type === 'dir'
    for (const op of entryOps) {
      if (!durable(op) && !kept.has(op)) continue
      switch (op.kind) {
        case 'mkdir':
          if (hasDir(parentOf(op.path)) && !names.has(op.path)) names.set(op.path, { type: 'dir' })
          break
        case 'create':
          if (hasDir(parentOf(op.path)) && !names.has(op.path))
            names.set(op.path, { type: 'file', inode: op.inode })
          break
        case 'link':
          if (hasDir(parentOf(op.to)) && !names.has(op.to))
            names.set(op.to, { type: 'file', inode: op.inode })
          break
        case 'rename': {
          const moved = names.get(op.from)
          if (moved === undefined || !hasDir(parentOf(op.to))) break
          names.delete(op.from)
          names.set(op.to, moved)
          break
        }
        case 'unlink':
          if (names.get(op.path)?.type === 'file') names.delete(op.path)
          break
      }
    }
    // A name whose directory did not persist is gone with it.
    for (const p of [...names.keys()].sort((a, b) => a.length - b.length)) {
      if (!hasDir(parentOf(p))) names.delete(p)
    }
    const inodes = [...new Set([...names.values()].flatMap((n) => (n.type === 'file' ? [n.inode] : [])))]
    const cutsOf = inodes.map((inode) => cuts(inode))
    const lost = free.filter((op) => !kept.has(op)).map(describeOp)
    for (const choice of product(cutsOf)) {
      const lengths = new Map(inodes.map((inode, i) => [inode, choice[i]!]))
      const tree: Tree = new Map()
      for (const [p, named] of names) {
        if (named.type === 'dir') tree.set(p, named)
        else tree.set(p, { type: 'file', data: contentOf(named.inode, lengths.get(named.inode)!) })
      }
      const torn = inodes
        .filter((inode) => lengths.get(inode)! !== (inode.ends.at(-1) ?? 0))
        .map((inode) => {
          const name = [...names].find(([, n]) => n.type === 'file' && n.inode === inode)![0]
          return `${name} cut at ${lengths.get(inode)} of ${inode.ends.at(-1) ?? 0} bytes (${inode.synced} synced)`
        })
      const description = [
        `crash after op ${at} of ${ops.length}${at > 0 ? ` (${describeTraceOp(ops[at - 1]!)})` : ''}`,
        lost.length === 0 ? 'every directory entry made persisted' : `not persisted: ${lost.join('; ')}`,
        ...torn,
      ].join('; ')
      states.push({ at, description, tree, promises })
    }
  }
  return states
}

/** The lengths a file's content may have after a crash. */
function cuts(inode: Inode): number[] {
  const ends = inode.ends.filter((end) => end > inode.synced)
  const result = new Set<number>([inode.synced])
  const starts = [inode.synced, ...ends.slice(0, -1)]
  const pick = ends.length <= MAX_CUTS / 2 ? ends.map((_, i) => i) : [0, 1, ends.length - 2, ends.length - 1]
  for (const i of pick) {
    result.add(ends[i]!)
    // Torn inside the write: half of it landed.
    if (i === 0 || i === ends.length - 1)
      result.add(starts[i]! + Math.max(1, Math.floor((ends[i]! - starts[i]!) / 2)))
  }
  return [...result].sort((a, b) => a - b)
}

function contentOf(inode: Inode, length: number): Buffer {
  return Buffer.concat(inode.chunks).subarray(0, length)
}

function* product(options: readonly number[][]): Generator<number[]> {
  if (options.length === 0) {
    yield []
    return
  }
  const [first, ...rest] = options
  for (const value of first!) for (const tail of product(rest)) yield [value, ...tail]
}

export function describeTraceOp(op: TraceOp): string {
  switch (op.kind) {
    case 'write':
      return `write ${op.bytes.length} bytes to ${op.path}`
    case 'rename':
    case 'link':
      return `${op.kind} ${op.from} → ${op.to}`
    case 'ack':
      return `ack: ${op.label}`
    case 'fsyncDir':
      return `fsync directory ${op.path === '' ? '.' : op.path}`
    default:
      return `${op.kind} ${op.path}`
  }
}

/** Identifies a state with its promises, so a state reached from two crash points is checked once. */
export function stateKey(state: CrashState): string {
  const hash = createHash('sha1')
  for (const [p, entry] of [...state.tree].sort(([a], [b]) => (a < b ? -1 : 1))) {
    hash.update(`${p}\0${entry.type}\0`)
    if (entry.type === 'file') hash.update(entry.data)
  }
  hash.update(JSON.stringify(state.promises))
  return hash.digest('hex')
}
