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
 * The steps from a missing `target` up to the file-system root: each candidate ancestor with the
 * components below it. Uses `dirname` on the path as spelled, so a `..` that follows a symlink is
 * still resolved by the OS (lexical normalisation would jump over the link).
 */
export function* ancestors(target: string): Generator<{ ancestor: string; tail: string[] }> {
  let current = toKey(target)
  const tail: string[] = []
  for (;;) {
    const parent = path.dirname(current)
    if (parent === current) return
    tail.unshift(path.basename(current))
    current = parent
    yield { ancestor: current, tail }
  }
}

/**
 * One step of {@link resolveForBoundary} once `real` (the realpath of the nearest existing ancestor)
 * is known and `link` is what its first missing component holds if that is a (dangling) symlink.
 * Without a link: the final answer, the missing components judged as plain directories. With one: the
 * path to resolve next, spelled raw so the OS still resolves any `..` or symlink in the link's text.
 */
function step(
  real: string,
  tail: readonly string[],
  link: string | undefined,
): { next?: string; done?: string } {
  if (link === undefined) return { done: path.resolve(real, ...tail) }
  const base = path.isAbsolute(link) ? link : real + (real.endsWith(path.sep) ? '' : path.sep) + link
  return { next: [base, ...tail.slice(1)].join(path.sep) }
}

function tooManyLinks(target: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ELOOP: too many symbolic links encountered, realpath '${target}'`), {
    code: 'ELOOP',
    syscall: 'realpath',
    path: target,
  })
}

/**
 * Where `target` would be once created: its nearest existing ancestor's realpath plus the missing
 * components. A missing component that is in fact a dangling symlink is followed (`readLink` gives its
 * text, or `undefined` when there is no link): a write through it lands at the link's target, which is
 * what must be judged. The rest of the missing part is judged as if it will be created as plain
 * directories; that is the TOCTOU window the README documents. Never stored: only `resolve` (the
 * cached realpath of existing ancestors) is.
 */
export async function resolveForBoundary(
  target: string,
  resolve: (p: string) => Promise<string>,
  readLink: (p: string) => Promise<string | undefined>,
): Promise<string> {
  let current = target
  for (let hops = 0; hops <= MAX_LINK_HOPS; hops++) {
    const found = await nearestExisting(current, resolve)
    if (typeof found === 'string') return found
    const { real, tail } = found
    const next = step(real, tail, await readLink(path.join(real, tail[0] as string)))
    if (next.done !== undefined) return next.done
    current = next.next as string
  }
  throw tooManyLinks(target)
}

async function nearestExisting(
  target: string,
  resolve: (p: string) => Promise<string>,
): Promise<string | { real: string; tail: string[] }> {
  try {
    return await resolve(target)
  } catch (err) {
    if (!isMissing(err)) throw err
    for (const { ancestor, tail } of ancestors(target)) {
      try {
        return { real: await resolve(ancestor), tail }
      } catch (inner) {
        if (!isMissing(inner)) throw inner
      }
    }
    throw err
  }
}

/** Synchronous {@link resolveForBoundary}. */
export function resolveForBoundarySync(
  target: string,
  resolve: (p: string) => string,
  readLink: (p: string) => string | undefined,
): string {
  let current = target
  for (let hops = 0; hops <= MAX_LINK_HOPS; hops++) {
    const found = nearestExistingSync(current, resolve)
    if (typeof found === 'string') return found
    const { real, tail } = found
    const next = step(real, tail, readLink(path.join(real, tail[0] as string)))
    if (next.done !== undefined) return next.done
    current = next.next as string
  }
  throw tooManyLinks(target)
}

function nearestExistingSync(
  target: string,
  resolve: (p: string) => string,
): string | { real: string; tail: string[] } {
  try {
    return resolve(target)
  } catch (err) {
    if (!isMissing(err)) throw err
    for (const { ancestor, tail } of ancestors(target)) {
      try {
        return { real: resolve(ancestor), tail }
      } catch (inner) {
        if (!isMissing(inner)) throw inner
      }
    }
    throw err
  }
}

/**
 * `readlink` for the boundary walk: the link's text, or `undefined` when there is nothing there or it is
 * not a symlink (EINVAL). Other failures (EACCES…) are reported.
 */
export function linkTextOrUndefined(err: unknown): undefined {
  if (isMissing(err) || (err as { code?: unknown } | null)?.code === 'EINVAL') return undefined
  throw err
}
