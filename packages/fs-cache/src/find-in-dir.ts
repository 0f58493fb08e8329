import * as path from 'node:path'
import { LRUCache } from 'lru-cache'
import { NO_THROW, type FsAdapter, type FsStatsLike } from './fs-adapter.js'
import { isMissing } from './is-missing.js'
import { isSameOrUnder, normalizeForMatch, toKey } from './path-match.js'
import { assertPath, invalidArgument } from './validate.js'

/**
 * A directory changed this recently may change again within the same timestamp tick (Linux stamps
 * files from a coarse clock, FAT has 2 s resolution), so an answer read now could be stale under an
 * unchanged mtime. Like git's "racily clean" rule, such answers are returned but not remembered.
 */
const RACY_WINDOW_MS = 2_000

interface Memo {
  readonly dirNorm: string
  readonly fileNorm: string
  readonly dev: number
  readonly ino: number
  readonly mtimeMs: number
  readonly ctimeMs: number
  readonly found: boolean
}

/**
 * Per-directory discovery (is there a `.gitignore` here?). Every call stats the directory once; the
 * remembered answer — absent *or* present — is used only while the directory's identity, mtime and
 * ctime are unchanged, so a file created or removed mid-session is seen on the next call, no watcher.
 */
export class DirProbe {
  readonly #fs: FsAdapter
  readonly #memo: LRUCache<string, Memo>
  // Bumped by invalidate/clear: a probe that started before must not remember its answer.
  #epoch = 0
  hits = 0
  misses = 0
  evictions = 0

  constructor(fs: FsAdapter, max: number) {
    this.#fs = fs
    this.#memo = new LRUCache<string, Memo>({
      max,
      dispose: (_value, _key, reason) => {
        if (reason === 'evict') this.evictions++
      },
    })
  }

  get size(): number {
    return this.#memo.size
  }

  /** Validates synchronously (misuse throws at the call), then probes. */
  find(dir: string, name: string): Promise<string | undefined> {
    const { memoKey, file } = parse(dir, name)
    return this.#find(dir, memoKey, file)
  }

  async #find(dir: string, memoKey: string, file: string): Promise<string | undefined> {
    const epoch = this.#epoch
    let dirStat: FsStatsLike
    try {
      dirStat = await this.#fs.stat(dir)
    } catch (err) {
      if (isMissing(err)) return undefined
      throw err
    }
    if (!dirStat.isDirectory()) return undefined
    const known = this.#recall(memoKey, dirStat)
    if (known !== undefined) return known ? file : undefined
    let found = false
    try {
      found = (await this.#fs.stat(file)).isFile()
    } catch (err) {
      if (!isMissing(err)) throw err
    }
    if (epoch === this.#epoch) this.#remember(memoKey, dir, file, dirStat, found)
    return found ? file : undefined
  }

  findSync(dir: string, name: string): string | undefined {
    const { memoKey, file } = parse(dir, name)
    let dirStat: FsStatsLike | undefined
    try {
      dirStat = this.#fs.statSync(dir, NO_THROW)
    } catch (err) {
      if (isMissing(err)) return undefined
      throw err
    }
    if (dirStat === undefined || !dirStat.isDirectory()) return undefined
    const known = this.#recall(memoKey, dirStat)
    if (known !== undefined) return known ? file : undefined
    let found = false
    try {
      found = this.#fs.statSync(file, NO_THROW)?.isFile() === true
    } catch (err) {
      if (!isMissing(err)) throw err
    }
    this.#remember(memoKey, dir, file, dirStat, found)
    return found ? file : undefined
  }

  #recall(memoKey: string, dirStat: FsStatsLike): boolean | undefined {
    const memo = this.#memo.get(memoKey)
    if (
      memo !== undefined &&
      memo.dev === dirStat.dev &&
      memo.ino === dirStat.ino &&
      memo.mtimeMs === dirStat.mtimeMs &&
      memo.ctimeMs === dirStat.ctimeMs
    ) {
      this.hits++
      return memo.found
    }
    this.misses++
    return undefined
  }

  #remember(memoKey: string, dir: string, file: string, dirStat: FsStatsLike, found: boolean): void {
    // mtime, not ctime: entry changes set both, and ctime also moves on chmod/utimes, which would make
    // a directory whose mtime was set back look racy for ever after.
    if (Date.now() - dirStat.mtimeMs < RACY_WINDOW_MS) {
      this.#memo.delete(memoKey)
      return
    }
    this.#memo.set(memoKey, {
      dirNorm: normalizeForMatch(toKey(dir)),
      fileNorm: normalizeForMatch(toKey(file)),
      dev: dirStat.dev,
      ino: dirStat.ino,
      mtimeMs: dirStat.mtimeMs,
      ctimeMs: dirStat.ctimeMs,
      found,
    })
  }

  /** Drops answers for the directory `base` or the file `base` (and, with `deep`, anything under it). */
  invalidate(base: string, deep: boolean): number {
    this.#epoch++
    const doomed: string[] = []
    for (const [key, memo] of this.#memo.entries()) {
      if (isSameOrUnder(memo.dirNorm, base, deep) || isSameOrUnder(memo.fileNorm, base, deep))
        doomed.push(key)
    }
    for (const key of doomed) this.#memo.delete(key)
    return doomed.length
  }

  clear(): number {
    this.#epoch++
    const dropped = this.#memo.size
    this.#memo.clear()
    return dropped
  }
}

function parse(dir: string, name: string): { memoKey: string; file: string } {
  assertPath('dir', dir)
  assertPath('name', name)
  if (name === '.' || name === '..' || name.includes('/') || name.includes(path.sep))
    throw invalidArgument('name', 'a single file name (no separator, not . or ..)', name)
  const key = toKey(dir)
  // Joined as spelled (no normalisation), like every key here; NUL cannot occur in a path.
  return { memoKey: `${key}\0${name}`, file: key.endsWith(path.sep) ? key + name : key + path.sep + name }
}
