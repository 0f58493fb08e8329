import { checkOptionsBag } from '../options.js'
import { refreshCatalog } from './catalog.js'
import { sessionsOf, type CatalogSession } from './catalog-session.js'
import { CATALOG_OPTION_NAMES, checkCatalogOptions, type CatalogOptions } from './options.js'

/**
 * Every session under `options.dirs` (by default every agent's usual locations), newest first, with what a
 * resume picker shows: agent, id, project, title, times, counts, models, usage, size. Backed by a cache
 * that is refreshed from the files on every call (an unchanged file is only `stat`ed), so the answer is
 * always the files' own; a file that cannot be read is listed with a `note`. Writes only the cache.
 */
export async function catalogSessions(options: CatalogOptions = {}): Promise<CatalogSession[]> {
  const checked = checkCatalogOptions(checkOptionsBag(options, CATALOG_OPTION_NAMES, 'catalogSessions()'))
  const { entries } = await refreshCatalog(checked.dirs, {
    cacheDir: checked.cacheDir,
    walk: checked.walk,
    blocking: checked.blocking,
    signal: checked.signal,
    onCacheError: checked.onCacheError,
  })
  return await sessionsOf(entries)
}
