import * as path from 'node:path'
import { isMissing } from './is-missing.js'
import { toKey } from './path-match.js'

/** Symlinks followed through missing targets before giving up, as Linux's path walk does (MAXSYMLINKS). */
const MAX_LINK_HOPS = 40

/** True when `target` is `root` or inside it, both already fully resolved. */
export function contains(root: string, target: string): boolean {
  if (target === root) return true
  const prefix = root.endsWith(path.sep) ? root : root + path.sep
  return target.startsWith(prefix)
}

/**
 * What the walk needs from the file system next. The reply is the answer as a string, or `undefined` for
 * "nothing there" (realpath: ENOENT/ENOTDIR; readlink: also EINVAL, i.e. not a symlink). Any other
 * failure is the driver's to throw: the walk never sees it.
 */
export type BoundaryRequest =
  { readonly op: 'realpath'; readonly path: string } | { readonly op: 'readlink'; readonly path: string }

/**
 * Where `target` would be once created, as the kernel resolves it at open time — written once as pure
 * decisions (sans-I/O), executed by {@link resolveForBoundary} and {@link resolveForBoundarySync}.
 *
 * 1. The whole path exists: its realpath is the answer (one request, the common case; the drivers make
 *    it themselves before starting the walk, which then begins at step 2).
 * 2. Otherwise find the longest existing prefix *as spelled* (a missing component makes every longer
 *    prefix missing too, so it is found walking back from the end) and take its realpath.
 * 3. Apply the remaining components one at a time to that fully resolved directory, the way the kernel
 *    walks them: a component that exists is resolved before the next one is applied (so `..` after a
 *    symlink is the parent of the link's *target*, never a lexical fold); a dangling symlink is followed
 *    through its text; a missing component is judged as a plain directory to be created, and `..` after
 *    it returns to its parent — where the next component is looked up on disk again, because a
 *    `mkdir -p` creates the missing one first and then walks on from there.
 *
 * `newdir/../lnk/x` therefore resolves `lnk`: when `lnk` points outside, so does the answer, even though
 * `newdir` does not exist yet (the lexical fold of the missing tail was issue #13's escape).
 */
export function* boundaryWalk(
  target: string,
  wholeIsMissing = false,
): Generator<BoundaryRequest, string, string | undefined> {
  const key = toKey(target)
  if (!wholeIsMissing) {
    const whole = yield { op: 'realpath', path: key }
    if (whole !== undefined) return whole
  }

  const { root, segments } = split(key)
  let kept = segments.length - 1
  let current: string | undefined
  for (; kept > 0; kept--) {
    // Spelled raw (no path.join): joining would fold `link/..` lexically before the OS sees it.
    current = yield { op: 'realpath', path: root + segments.slice(0, kept).join(path.sep) }
    if (current !== undefined) break
  }
  current ??= (yield { op: 'realpath', path: root }) ?? root

  const pending = segments.slice(kept)
  // How many trailing components of `current` do not exist (directories a mkdir -p would create).
  let missing = 0
  let hops = 0
  // The prefix one component longer than `kept`, as spelled, was just found missing: when that component
  // is a plain name, asking realpath again from the resolved prefix would repeat the same failed lookup.
  let nextKnownMissing = true
  for (let segment = pending.shift(); segment !== undefined; segment = pending.shift()) {
    const skipRealpath = nextKnownMissing
    nextKnownMissing = false
    if (segment === '.') continue
    if (segment === '..') {
      // `current` is fully resolved, so its textual parent is its real parent.
      current = path.dirname(current)
      if (missing > 0) missing--
      continue
    }
    const next = path.join(current, segment)
    if (missing > 0) {
      // Nothing can exist under a directory that does not exist yet.
      current = next
      missing++
      continue
    }
    const real = skipRealpath ? undefined : yield { op: 'realpath', path: next }
    if (real !== undefined) {
      current = real
      continue
    }
    const link = yield { op: 'readlink', path: next }
    if (link === undefined) {
      current = next
      missing = 1
      continue
    }
    // A dangling symlink: a write through it lands at its target, so walk the link's text from here.
    if (++hops > MAX_LINK_HOPS) throw tooManyLinks(key)
    const parsed = split(path.isAbsolute(link) ? link : `${path.sep}${link}`)
    if (path.isAbsolute(link)) current = parsed.root
    pending.unshift(...parsed.segments)
  }
  return current
}

/** The root (`/`, `C:\`) and the non-empty components after it, as spelled (no folding of `..`). */
function split(absolute: string): { root: string; segments: string[] } {
  const { root } = path.parse(absolute)
  const separators = path.sep === '/' ? /\/+/ : /[\\/]+/
  return { root, segments: absolute.slice(root.length).split(separators).filter(Boolean) }
}

function tooManyLinks(target: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ELOOP: too many symbolic links encountered, realpath '${target}'`), {
    code: 'ELOOP',
    syscall: 'realpath',
    path: target,
  })
}

/** The file-system calls a driver makes; `realpath` may be the cached one, `readlink` never is. */
export interface BoundaryFs<T> {
  readonly realpath: (p: string) => T
  readonly readlink: (p: string) => T
}

/** Runs {@link boundaryWalk} with async calls. Failures other than "missing" reject unchanged. */
export async function resolveForBoundary(target: string, fs: BoundaryFs<Promise<string>>): Promise<string> {
  // Step 1 of the walk, made here: an existing target (a hit, mostly) costs no generator at all.
  try {
    return await fs.realpath(target)
  } catch (err) {
    if (!isMissing(err)) throw err
  }
  const walk = boundaryWalk(target, true)
  let step = walk.next()
  while (!step.done) {
    const request = step.value
    let reply: string | undefined
    try {
      reply = await (request.op === 'realpath' ? fs.realpath(request.path) : fs.readlink(request.path))
    } catch (err) {
      reply = nothingThere(request, err)
    }
    step = walk.next(reply)
  }
  return step.value
}

/** Runs {@link boundaryWalk} with sync calls. */
export function resolveForBoundarySync(target: string, fs: BoundaryFs<string>): string {
  try {
    return fs.realpath(target)
  } catch (err) {
    if (!isMissing(err)) throw err
  }
  const walk = boundaryWalk(target, true)
  let step = walk.next()
  while (!step.done) {
    const request = step.value
    let reply: string | undefined
    try {
      reply = request.op === 'realpath' ? fs.realpath(request.path) : fs.readlink(request.path)
    } catch (err) {
      reply = nothingThere(request, err)
    }
    step = walk.next(reply)
  }
  return step.value
}

/**
 * `undefined` when `err` means "nothing there" for this request (readlink's EINVAL: it exists but is
 * not a symlink); every other failure (EACCES, ELOOP, EIO…) is rethrown for the caller.
 */
function nothingThere(request: BoundaryRequest, err: unknown): undefined {
  if (isMissing(err)) return undefined
  if (request.op === 'readlink' && (err as { code?: unknown } | null)?.code === 'EINVAL') return undefined
  throw err
}
