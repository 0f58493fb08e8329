import { invalid } from '../options.js'
import { defaultCacheDir } from './cache-dir.js'
import { defaultSessionRoots } from './default-roots.js'

/** Options of `catalogSessions()` (and the part of `searchSessions()`'s that says where to look). */
export interface CatalogOptions {
  /**
   * Directories to look in. Each is walked down a few levels for transcripts (`*.jsonl`, Gemini's
   * `session-*.json`); a directory named like a transcript next to it holds that session's subagents.
   * @default every agent's usual locations (see `defaultSessionRoots()`), the missing ones skipped
   */
  readonly dirs?: readonly string[]
  /**
   * Where the catalog cache lives; created if missing. Never put it inside an agent's directory.
   * @default `$SESSIONTAPE_CACHE_DIR`, else `$XDG_CACHE_HOME/sessiontape`, else `~/.cache/sessiontape`
   */
  readonly cacheDir?: string
  /**
   * `deep` walks each directory down a few levels; `shallow` lists a directory's own transcripts, or when it
   * has none its subdirectories' (and their `chats/`), as `listSessions` of the recorder does.
   * @default 'deep'
   */
  readonly walk?: 'deep' | 'shallow'
  /**
   * Walk the directories, `stat` the transcripts and read the cache with synchronous calls. For a process
   * that does nothing else meanwhile (the `sessiontape` command): a warm call then spends no thread-pool
   * round trip and no callback per file. The event loop is blocked while they run — never in a process
   * that serves anything else (an agent's UI), and a directory on a mount that hangs keeps the process in
   * that call (even a stop signal's listener cannot run) until it returns. Changed files are still read
   * asynchronously.
   * @default false
   */
  readonly blocking?: boolean
  /** Stops between files; the promise then rejects with the signal's reason. @default undefined */
  readonly signal?: AbortSignal
  /**
   * Called when the cache cannot be saved (a read-only or full disk), and once per call when the cache
   * directory is not used because someone else could have written it (a `CacheDirError`, code
   * `ERR_CACHE_DIR_UNSAFE`: a link, another user's, or writable by group or others): the answer is still
   * complete, read from the files, and the next call reads them again. Never thrown.
   * @default undefined (ignored)
   */
  readonly onCacheError?: (error: unknown) => void
}

export interface CheckedCatalogOptions {
  readonly dirs: readonly string[]
  readonly cacheDir: string
  readonly walk: 'deep' | 'shallow'
  readonly blocking: boolean
  readonly signal: AbortSignal | undefined
  readonly onCacheError: (error: unknown) => void
}

export const CATALOG_OPTION_NAMES = [
  'dirs',
  'cacheDir',
  'walk',
  'blocking',
  'signal',
  'onCacheError',
] as const

/** Validates the catalog options of a bag already checked for unknown keys. */
export function checkCatalogOptions(given: Readonly<Record<string, unknown>>): CheckedCatalogOptions {
  const { dirs, cacheDir, walk, blocking, signal, onCacheError } = given
  if (
    dirs !== undefined &&
    !(Array.isArray(dirs) && dirs.every((dir) => typeof dir === 'string' && dir !== ''))
  ) {
    throw invalid('dirs', dirs, 'an array of non-empty paths')
  }
  if (cacheDir !== undefined && !(typeof cacheDir === 'string' && cacheDir !== '')) {
    throw invalid('cacheDir', cacheDir, 'a non-empty path')
  }
  if (walk !== undefined && walk !== 'deep' && walk !== 'shallow')
    throw invalid('walk', walk, "'deep' or 'shallow'")
  if (blocking !== undefined && typeof blocking !== 'boolean')
    throw invalid('blocking', blocking, 'a boolean')
  if (signal !== undefined && !(signal instanceof AbortSignal))
    throw invalid('signal', signal, 'an AbortSignal')
  if (onCacheError !== undefined && typeof onCacheError !== 'function')
    throw invalid('onCacheError', onCacheError, 'a function')
  return {
    dirs: (dirs as string[] | undefined) ?? defaultSessionRoots().map((root) => root.dir),
    cacheDir: cacheDir ?? defaultCacheDir(),
    walk: walk ?? 'deep',
    blocking: blocking ?? false,
    signal: signal,
    onCacheError: (onCacheError as ((error: unknown) => void) | undefined) ?? (() => {}),
  }
}
