// `@sessiontape/sessions/search`: full-text search alone, for an agent's `/search` or `sessiontape search` —
// it loads neither the secret scanner nor the exporter nor the viewer (the package's `.` entry loads them all).
export { searchSessions, type SearchHit, type SearchResult, type Unsearched } from './search-sessions.js'
export type { SearchOptions } from './options.js'
export { SEARCH_ROLES, type SearchRole } from './searchable-text.js'
