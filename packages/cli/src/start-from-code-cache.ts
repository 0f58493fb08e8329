import { createHash, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import vm from 'node:vm'
import { defaultCacheDir } from '@sessiontape/sessions/catalog'

/**
 * How the `sessiontape` bin starts the CLI: the whole command (dist/sessiontape.cjs, one CommonJS file:
 * scripts/build.ts) compiled with a V8 code cache kept beside the catalog, in
 * `<cache dir>/code-cache/` ($SESSIONTAPE_CACHE_DIR, else $XDG_CACHE_HOME/sessiontape, else
 * ~/.cache/sessiontape). A short command spends a third of its time compiling the CLI (Node's own start
 * is another third); the cache, written after a run, holds the bytecode of every function that run
 * compiled, so the next run of that command compiles almost nothing. Node 20 has no code cache for ES
 * modules (`module.enableCompileCache` is Node ≥ 22.1), so the CLI ships as CommonJS and is compiled
 * here through `vm.Script`, the API that takes a cache.
 *
 * File format, one file per command word (`search`, `list`…: each command compiles different functions)
 * and per build of the CLI: `STCODE2\n`, the SHA-1 of what follows it (20 bytes), a state byte (0: written
 * by a run that had no cache to use; 1: checked by a run that used it), then the payload as
 * `vm.Script#createCachedData` made it. The name carries what V8 itself does not check: V8 rejects a cache
 * made by another V8 version or with other flags, but compares only the source's *length*, and checks no
 * checksum in release builds — so the name is a hash of the bundle's bytes with Node's version,
 * architecture and flags, and the digest is checked before V8 sees the bytes.
 *
 * A cache is code, so only one this user wrote and no one else can change is run: the file and its
 * directory owned by the user and writable by no group or other, the directory not a link (a cache
 * directory shared with others, or a `code-cache` linked into one, is neither read nor written).
 *
 * It is only a cache: a missing, damaged or rejected one costs one ordinary start and is written again
 * after a run that ends with exit code 0 or 1 (a mistyped command leaves none). Making the data costs a
 * run ~3.5 ms, so a run that used a cache makes it only to check the cache: the first run that uses a new
 * cache writes it again with what that run compiled (state 1), and then one run a day (see
 * RECHECK_AFTER_MS) writes it again when it compiled more than the cache holds (see GROWTH_TO_REWRITE), else
 * only marks it checked (its mtime). One that cannot be read or written is skipped without a word. Nothing but a regular file is ever read (a FIFO at its path cannot hang the start),
 * nothing else at its path is replaced, and files are created new (`wx`) then renamed into place; at most
 * {@link MAX_FILES} are kept, the oldest removed first, and nothing in the directory that this module did
 * not name is ever removed. Every command reads and may write here, with synchronous
 * calls before and after its run: where the cache directory is on a mount that can hang (a network home),
 * `SESSIONTAPE_DISABLE_CODE_CACHE=1` turns the cache off (nothing read or written).
 */

const MAGIC = Buffer.from('STCODE2\n')
const DIGEST_BYTES = 20
/** The state byte: written by a run that had no cache to use, or checked since by a run that used it. */
const UNCHECKED = 0
const CHECKED = 1
const HEADER_BYTES = MAGIC.length + DIGEST_BYTES + 1
/** Caches kept: a file per command word (about 15) of one build, and room for a second build. */
const MAX_FILES = 32
/** How much larger than the cache it used a run's code cache must be to replace it. */
const GROWTH_TO_REWRITE = 16 * 1024
/**
 * A checked cache is checked again by a run when it was last written or checked longer ago than this (its
 * mtime says when): the functions a command compiles change with what it meets (a search that finds files
 * changed compiles the catalog's refresh), and a check a day costs nothing a user would see.
 */
const RECHECK_AFTER_MS = 24 * 60 * 60 * 1000
/** A code cache of the CLI is ~0.3–1 MB; past this a file is not one of ours. */
const MAX_CACHE_BYTES = 64 * 1024 * 1024
// The CommonJS wrapper Node itself puts around a module: the bundle runs as it would from require().
const WRAPPER_HEAD = '(function (exports, require, module, __filename, __dirname) { '
const WRAPPER_TAIL = '\n})'

type ModuleFunction = (
  exports: unknown,
  require: NodeJS.Require,
  module: { exports: unknown },
  filename: string,
  dirname: string,
) => void

/**
 * Runs the CommonJS bundle at `bundle` (an absolute path) with the code cache of `argv`'s command. `require`
 * is the bin's own: the bundle requires only Node's built-in modules, which resolve the same from anywhere,
 * so no `createRequire` of a path computed at run time (which a bundler of this file could not follow).
 */
export function startFromCodeCache(
  bundle: string,
  require: NodeJS.Require,
  argv: readonly string[] = process.argv,
  env: NodeJS.ProcessEnv = process.env,
): void {
  const off = env.SESSIONTAPE_DISABLE_CODE_CACHE
  if (off !== undefined && off !== '' && off !== '0') {
    require(bundle)
    return
  }
  const bytes = fs.readFileSync(bundle)
  const file = cacheFileOf(bytes, argv[2], env)
  const source = bytes.toString('utf8')
  const cached = file === undefined ? undefined : readCache(file)
  const script = new vm.Script(WRAPPER_HEAD + source + WRAPPER_TAIL, {
    filename: bundle,
    cachedData: cached?.payload,
  })
  if (file !== undefined) {
    const usable = cached !== undefined && script.cachedDataRejected !== true
    // After the run: the cache then holds what the command compiled, not only the bundle's top level. The
    // first run that uses a cache writes it again as checked, with what it compiled (the run that wrote it
    // may have built the index, the runs after it read it: other functions); a checked cache is checked
    // once a day, and written again only when this run compiled more than it holds.
    process.once('exit', (code) => {
      if (code !== 0 && code !== 1) return
      if (usable && checkedToday(cached)) return
      const data = script.createCachedData()
      if (!usable || cached.state !== CHECKED || data.length > cached.payload.length + GROWTH_TO_REWRITE)
        writeCache(file, data, usable ? CHECKED : UNCHECKED)
      // Where the time cannot be set through the open file (Windows opens it without the right to), the
      // cache is written again instead: either way the next check is a day away.
      else if (!markChecked(file, cached)) writeCache(file, data, CHECKED)
    })
  }
  const run = script.runInThisContext() as ModuleFunction
  const module = { exports: {} }
  run.call(module.exports, module.exports, require, module, bundle, path.dirname(bundle))
}

/**
 * A cache checked by a run in the last {@link RECHECK_AFTER_MS}. A checked time in the future (a clock that
 * was wrong, a copied file) is no reason to wait: that cache is checked now.
 */
function checkedToday(cache: CodeCache): boolean {
  const age = Date.now() - cache.mtimeMs
  return cache.state === CHECKED && age >= 0 && age < RECHECK_AFTER_MS
}

/** The cache's path for this build of the CLI and this command word; undefined when it cannot be named. */
function cacheFileOf(
  bundle: Buffer,
  command: string | undefined,
  env: NodeJS.ProcessEnv,
): string | undefined {
  try {
    // The bundle's bytes, not its size and mtime: a new version can be as long as the last (a version
    // string changed) and carry the same mtime (installers that fix it, as Nix does; a copy that keeps
    // it) — and V8, comparing only the length, would run the old cache.
    // Node's flags too: V8 rejects a cache made under other flags, and one shared file would be written
    // again on every run that alternates them. (A NODE_OPTIONS that changes on every run — a wrapper that
    // adds a unique flag — makes a cache per run, each pruned in turn: the cache then does not help.)
    const build = createHash('sha1')
      .update(bundle)
      .update(
        `\0${process.version}\0${process.arch}\0${process.execArgv.join(' ')}\0${env.NODE_OPTIONS ?? ''}`,
      )
      .digest('hex')
      .slice(0, 16)
    const word = command !== undefined && /^[a-z]{2,16}$/.test(command) ? command : 'other'
    return path.join(defaultCacheDir(env), 'code-cache', `${build}.${word}.bin`)
  } catch {
    return undefined
  }
}

/** A cache as read: what V8 takes, its state byte, when it was last written or checked, and which file. */
interface CodeCache {
  readonly payload: Buffer
  readonly state: number
  readonly mtimeMs: number
  readonly dev: number
  readonly ino: number
}

/** The cache, or undefined: missing, not a regular file, too large, or its digest is wrong. */
function readCache(file: string): CodeCache | undefined {
  let fd: number | undefined
  try {
    // Non-blocking and not through a symlink: a FIFO put at this path must not hang the start.
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOFOLLOW)
    const info = fs.fstatSync(fd)
    if (info.size > MAX_CACHE_BYTES || info.size <= HEADER_BYTES) return undefined
    // A code cache is code: run only a regular file that this user wrote and no one else could have
    // changed, in a directory of this user's that no one else can write to (not a shared cache directory,
    // not a link into one).
    if (!ownedAndPrivate(info) || !ownedAndPrivate(fs.lstatSync(path.dirname(file)), 'directory'))
      return undefined
    const bytes = Buffer.allocUnsafe(info.size)
    let got = 0
    while (got < bytes.length) {
      const n = fs.readSync(fd, bytes, got, bytes.length - got, got)
      if (n === 0) return undefined
      got += n
    }
    if (!bytes.subarray(0, MAGIC.length).equals(MAGIC)) return undefined
    const digest = createHash('sha1')
      .update(bytes.subarray(MAGIC.length + DIGEST_BYTES))
      .digest()
    if (!digest.equals(bytes.subarray(MAGIC.length, MAGIC.length + DIGEST_BYTES))) return undefined
    return {
      payload: bytes.subarray(HEADER_BYTES),
      state: bytes[HEADER_BYTES - 1]!,
      mtimeMs: info.mtimeMs,
      dev: info.dev,
      ino: info.ino,
    }
  } catch {
    return undefined
  } finally {
    if (fd !== undefined) fs.closeSync(fd)
  }
}

/** Writes the cache as a new file renamed into place, then keeps the newest {@link MAX_FILES}. */
function writeCache(file: string, payload: Buffer, state: number): void {
  const dir = path.dirname(file)
  // Random, not the pid alone: in a container every run may be pid 1, and a run killed mid-write leaves its
  // file behind (pruned later, see pruneCaches).
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`
  let fd: number | undefined
  let created = false
  try {
    // Something else at the cache's path (a FIFO, a directory, a link) is left where it is.
    const existing = fs.lstatSync(file, { throwIfNoEntry: false })
    if (existing !== undefined && !existing.isFile()) return
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 })
    // Not through a link to another directory, and not into one that others can write to (see readCache).
    if (!ownedAndPrivate(fs.lstatSync(dir), 'directory')) return
    // Created new: whatever is already at this path (a FIFO, a link) is not opened, and not removed.
    fd = fs.openSync(temporary, 'wx', 0o600)
    created = true
    const stateByte = Buffer.of(state)
    const digest = createHash('sha1').update(stateByte).update(payload).digest()
    fs.writeSync(fd, Buffer.concat([MAGIC, digest, stateByte, payload]))
    fs.closeSync(fd)
    fd = undefined
    fs.renameSync(temporary, file)
    created = false
    pruneCaches(dir)
  } catch {
    try {
      if (fd !== undefined) fs.closeSync(fd)
      if (created) fs.rmSync(temporary, { force: true })
    } catch {
      // Only a cache: what could not be tidied is overwritten or pruned later.
    }
  }
}

/**
 * Marks the cache that was read as checked now (its mtime): the next check is a day away. Only that file
 * (same device and inode), still this user's, in the private directory, is touched: another file put at its
 * path since (a link, a FIFO, a cache another run renamed into place) is left alone. False when the time
 * could not be set.
 */
function markChecked(file: string, read: CodeCache): boolean {
  let fd: number | undefined
  try {
    if (!ownedAndPrivate(fs.lstatSync(path.dirname(file)), 'directory')) return true
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOFOLLOW)
    const info = fs.fstatSync(fd)
    if (!ownedAndPrivate(info) || info.dev !== read.dev || info.ino !== read.ino) return true
    const now = new Date()
    fs.futimesSync(fd, now, now)
    return true
  } catch {
    // Gone, or not settable through this descriptor: the caller writes the cache again instead.
    return false
  } finally {
    if (fd !== undefined) fs.closeSync(fd)
  }
}

/**
 * A regular file (or, with `kind`, a real directory — not a link) of this process's user that neither its
 * group nor others may write. Where there are no user ids (Windows), only the kind is checked.
 */
function ownedAndPrivate(info: fs.Stats, kind: 'file' | 'directory' = 'file'): boolean {
  if (kind === 'file' ? !info.isFile() : !info.isDirectory()) return false
  if (typeof process.getuid !== 'function') return true
  return info.uid === process.getuid() && (info.mode & 0o022) === 0
}

/** A name this module writes: a cache, or a temporary file on its way to one. */
const OWN_NAME = /^[0-9a-f]{16}\.[a-z]{2,16}\.bin(\.[0-9a-f]{12}\.tmp)?$/
/** A temporary file older than this was left by a run that died before renaming it. */
const STALE_TEMPORARY_MS = 10 * 60 * 1000

/**
 * Keeps the newest {@link MAX_FILES} caches and removes stale temporary files — only regular files with
 * names this module writes: anything else in the directory is not ours to remove.
 */
function pruneCaches(dir: string): void {
  const caches: { name: string; mtime: number }[] = []
  const now = Date.now()
  for (const name of fs.readdirSync(dir)) {
    if (!OWN_NAME.test(name)) continue
    const info = fs.lstatSync(path.join(dir, name), { throwIfNoEntry: false })
    if (info === undefined || !info.isFile()) continue
    if (!name.endsWith('.tmp')) caches.push({ name, mtime: info.mtimeMs })
    else if (Math.abs(now - info.mtimeMs) > STALE_TEMPORARY_MS) removeQuietly(path.join(dir, name))
  }
  caches.sort((a, b) => a.mtime - b.mtime)
  for (const { name } of caches.slice(0, Math.max(0, caches.length - MAX_FILES)))
    removeQuietly(path.join(dir, name))
}

function removeQuietly(file: string): void {
  try {
    fs.rmSync(file, { force: true })
  } catch {
    // Gone already, or not ours to remove after all: the next prune looks again.
  }
}
