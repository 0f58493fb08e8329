// `@sessiontape/sessions/catalog`: the catalog alone, for a resume picker or `sessiontape list` — it loads
// neither the secret scanner nor the exporter nor the viewer (the package's `.` entry loads them all).
export { catalogSessions } from './catalog-sessions.js'
export type { CatalogSession } from './catalog-session.js'
export type { CatalogOptions } from './options.js'
export { defaultCacheDir } from './cache-dir.js'
export { CacheDirError } from './private-dir.js'
export { defaultSessionRoots, type SessionRoot } from './default-roots.js'
