import type { Agent } from '../model.js'
import type { CatalogOptions } from '../catalog/options.js'
import type { SearchRole } from './searchable-text.js'

/** Options of `searchSessions()`: where to look (as `catalogSessions()`), filters, and how many hits. */
export interface SearchOptions extends CatalogOptions {
  /** Only sessions these agents wrote. @default every agent */
  readonly agent?: Agent | readonly Agent[]
  /** Only sessions whose working directory (project) contains this text. @default any */
  readonly project?: string
  /**
   * Only what happened at or after this time: sessions updated since, and hits whose event is timed no
   * earlier (an event without a time goes by its session). @default no bound
   */
  readonly since?: Date
  /** Only what happened at or before this time (the same rules). @default no bound */
  readonly until?: Date
  /** Only hits of these roles; `'tool'` means both tool kinds. @default every role */
  readonly role?: SearchRole | 'tool' | readonly (SearchRole | 'tool')[]
  /**
   * Most hits returned (newest sessions first). At least 1. Every candidate session is still read, so
   * `total` counts every hit and `truncated` says when this cut some. @default no bound (every hit)
   */
  readonly limit?: number
  /** Most hits per session (its best ones). At least 1. @default no bound (every hit) */
  readonly perSession?: number
}
