import * as path from 'node:path'
import { isMissing } from './is-missing.js'
import { toKey } from './path-match.js'

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
 * Where `target` would be once created: its nearest existing ancestor's realpath plus the missing
 * components. The missing part is judged as if it will be created as plain directories; that is the
 * TOCTOU window the README documents. Never stored: only `resolve` (the cached realpath of existing
 * ancestors) is.
 */
export async function resolveForBoundary(
  target: string,
  resolve: (p: string) => Promise<string>,
): Promise<string> {
  try {
    return await resolve(target)
  } catch (err) {
    if (!isMissing(err)) throw err
    for (const { ancestor, tail } of ancestors(target)) {
      try {
        return path.resolve(await resolve(ancestor), ...tail)
      } catch (inner) {
        if (!isMissing(inner)) throw inner
      }
    }
    throw err
  }
}

/** Synchronous {@link resolveForBoundary}. */
export function resolveForBoundarySync(target: string, resolve: (p: string) => string): string {
  try {
    return resolve(target)
  } catch (err) {
    if (!isMissing(err)) throw err
    for (const { ancestor, tail } of ancestors(target)) {
      try {
        return path.resolve(resolve(ancestor), ...tail)
      } catch (inner) {
        if (!isMissing(inner)) throw inner
      }
    }
    throw err
  }
}
