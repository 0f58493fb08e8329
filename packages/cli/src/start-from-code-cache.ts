import { createHash } from 'node:crypto'
import fs from 'node:fs'
import { createRequire } from 'node:module'
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
 * and per build of the CLI: `STCODE1\n`, the SHA-1 of the payload (20 bytes), then the payload as
 * `vm.Script#createCachedData` made it. The name carries what V8 itself does not check: V8 rejects a cache
 * made by another V8 version or with other flags, but compares only the source's *length*, and checks no
 * checksum in release builds — so the name is a hash of the bundle's bytes with Node's version and
 * architecture, and the digest is checked before V8 sees the bytes.
 *
 * It is only a cache: a missing, damaged or rejected one costs one ordinary start and is written again
 * after a run that ends with exit code 0 or 1 (a mistyped command leaves none); one that cannot be read or
 * written is skipped without a word. Nothing but a regular file is ever read (a FIFO at its path cannot
 * hang the start), nothing else at its path is replaced, and files are created new (`wx`) then renamed
 * into place; at most {@link MAX_FILES} are kept, the oldest removed first.
 * `SESSIONTAPE_DISABLE_CODE_CACHE=1` turns it off (nothing read or written).
 */

const MAGIC = Buffer.from('STCODE1\n')
const DIGEST_BYTES = 20
/** Caches kept: a file per command word (about 15) of one build, and room for a second build. */
const MAX_FILES = 32
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

/** Runs the CommonJS bundle at `bundle` (an absolute path) with the code cache of `argv`'s command. */
export function startFromCodeCache(
  bundle: string,
  argv: readonly string[] = process.argv,
  env: NodeJS.ProcessEnv = process.env,
): void {
  const requireFromBundle = createRequire(bundle)
  const off = env.SESSIONTAPE_DISABLE_CODE_CACHE
  if (off !== undefined && off !== '' && off !== '0') {
    requireFromBundle(bundle)
    return
  }
  const bytes = fs.readFileSync(bundle)
  const file = cacheFileOf(bytes, argv[2], env)
  const source = bytes.toString('utf8')
  const cached = file === undefined ? undefined : readCache(file)
  const script = new vm.Script(WRAPPER_HEAD + source + WRAPPER_TAIL, { filename: bundle, cachedData: cached })
  if (file !== undefined && (cached === undefined || script.cachedDataRejected === true)) {
    // After the run: the cache then holds what the command compiled, not only the bundle's top level.
    process.once('exit', (code) => {
      if (code === 0 || code === 1) writeCache(file, script.createCachedData())
    })
  }
  const run = script.runInThisContext() as ModuleFunction
  const module = { exports: {} }
  run.call(module.exports, module.exports, requireFromBundle, module, bundle, path.dirname(bundle))
}

/** The cache's path for this build of the CLI and this command word; undefined when it cannot be named. */
function cacheFileOf(
  bundle: Buffer,
  command: string | undefined,
  env: NodeJS.ProcessEnv,
): string | undefined {
  try {
    // The bundle's bytes, not its size and mtime: npm gives every file it installs the same mtime, and a
    // new version can be as long as the last (a version string changed) — V8 would take the old cache.
    const build = createHash('sha1')
      .update(bundle)
      .update(`\0${process.version}\0${process.arch}`)
      .digest('hex')
      .slice(0, 16)
    const word = command !== undefined && /^[a-z]{2,16}$/.test(command) ? command : 'other'
    return path.join(defaultCacheDir(env), 'code-cache', `${build}.${word}.bin`)
  } catch {
    return undefined
  }
}

/** The cache's payload, or undefined: missing, not a regular file, too large, or its digest is wrong. */
function readCache(file: string): Buffer | undefined {
  let fd: number | undefined
  try {
    // Non-blocking and not through a symlink: a FIFO put at this path must not hang the start.
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOFOLLOW)
    const info = fs.fstatSync(fd)
    if (!info.isFile() || info.size > MAX_CACHE_BYTES || info.size <= MAGIC.length + DIGEST_BYTES)
      return undefined
    const bytes = Buffer.allocUnsafe(info.size)
    let got = 0
    while (got < bytes.length) {
      const n = fs.readSync(fd, bytes, got, bytes.length - got, got)
      if (n === 0) return undefined
      got += n
    }
    if (!bytes.subarray(0, MAGIC.length).equals(MAGIC)) return undefined
    const payload = bytes.subarray(MAGIC.length + DIGEST_BYTES)
    const digest = createHash('sha1').update(payload).digest()
    return digest.equals(bytes.subarray(MAGIC.length, MAGIC.length + DIGEST_BYTES)) ? payload : undefined
  } catch {
    return undefined
  } finally {
    if (fd !== undefined) fs.closeSync(fd)
  }
}

/** Writes the cache as a new file renamed into place, then keeps the newest {@link MAX_FILES}. */
function writeCache(file: string, payload: Buffer): void {
  const dir = path.dirname(file)
  const temporary = `${file}.${process.pid}.tmp`
  let fd: number | undefined
  let created = false
  try {
    // Something else at the cache's path (a FIFO, a directory, a link) is left where it is.
    const existing = fs.lstatSync(file, { throwIfNoEntry: false })
    if (existing !== undefined && !existing.isFile()) return
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 })
    // Created new: whatever is already at this path (a FIFO, a link) is not opened, and not removed.
    fd = fs.openSync(temporary, 'wx', 0o600)
    created = true
    const digest = createHash('sha1').update(payload).digest()
    fs.writeSync(fd, Buffer.concat([MAGIC, digest, payload]))
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

function pruneCaches(dir: string): void {
  const names = fs.readdirSync(dir).filter((name) => name.endsWith('.bin'))
  if (names.length <= MAX_FILES) return
  const byAge = names
    .map((name) => ({ name, mtime: fs.lstatSync(path.join(dir, name)).mtimeMs }))
    .sort((a, b) => a.mtime - b.mtime)
  for (const { name } of byAge.slice(0, byAge.length - MAX_FILES))
    fs.rmSync(path.join(dir, name), { force: true })
}
