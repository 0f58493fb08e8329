import { digestOf, type CachedEntry } from '../catalog/cache-store.js'
import { agentOf } from '../formats/index.js'
import { invalid } from '../options.js'
import { SEARCH_ROLES, type SearchRole } from './searchable-text.js'
import { rowHasAll } from './trigram-filter.js'

/** The checked filters of a search (options.ts documents each). */
export interface Filters {
  readonly agents: ReadonlySet<string> | undefined
  readonly project: string | undefined
  readonly since: number
  readonly until: number
  readonly roles: ReadonlySet<SearchRole> | undefined
  readonly limit: number
  readonly perSession: number
}

export function checkFilters(bag: Readonly<Record<string, unknown>>): Filters {
  const { agent, project, since, until, role, limit, perSession } = bag
  const agents = agent === undefined ? undefined : Array.isArray(agent) ? agent : [agent]
  if (agents !== undefined && !agents.every((a) => typeof a === 'string' && a !== ''))
    throw invalid('agent', agent, 'an agent name or an array of them')
  if (project !== undefined && typeof project !== 'string') throw invalid('project', project, 'a string')
  for (const [name, value] of [
    ['since', since],
    ['until', until],
  ] as const) {
    if (value !== undefined && !(value instanceof Date && Number.isFinite(value.getTime())))
      throw invalid(name, value, 'a valid Date')
  }
  const roles = role === undefined ? undefined : Array.isArray(role) ? role : [role]
  if (
    roles !== undefined &&
    !roles.every((r) => r === 'tool' || (SEARCH_ROLES as readonly unknown[]).includes(r))
  ) {
    throw invalid(
      'role',
      role,
      `one of ${[...SEARCH_ROLES, 'tool'].map((r) => `'${r}'`).join(', ')} (or an array of them)`,
    )
  }
  for (const [name, value] of [
    ['limit', limit],
    ['perSession', perSession],
  ] as const) {
    if (value !== undefined && !(Number.isSafeInteger(value) && (value as number) >= 1))
      throw invalid(name, value, 'a whole number ≥ 1')
  }
  return {
    agents: agents === undefined ? undefined : new Set(agents as string[]),
    project: project,
    since: since === undefined ? -Infinity : (since as Date).getTime(),
    until: until === undefined ? Infinity : (until as Date).getTime(),
    roles:
      roles === undefined
        ? undefined
        : new Set(
            (roles as string[]).flatMap((r) =>
              r === 'tool' ? ['tool-call', 'tool-result'] : [r],
            ) as SearchRole[],
          ),
    // No bound unless asked: a search never cuts its answer on its own (a cut is said: `truncated`).
    limit: (limit as number | undefined) ?? Infinity,
    perSession: (perSession as number | undefined) ?? Infinity,
  }
}

/** Whether the file's filter lets it through (a file without one is read: the index never rules out blindly). */
export function mayHold(entry: CachedEntry, columns: readonly number[]): boolean {
  const filter = entry.filter
  if (filter?.bytes !== undefined) return rowHasAll(filter.bytes, columns)
  return filter?.matches ?? true
}

/** Session-level filters; `owner` is the session a subagent transcript belongs to (itself otherwise). */
export function passes(filters: Filters, owner: CachedEntry, entry: CachedEntry): boolean {
  if (filters.agents !== undefined && !filters.agents.has(agentOf(owner.format))) return false
  if (filters.project !== undefined && !(digestOf(owner).cwd ?? '').includes(filters.project)) return false
  // A file without a time goes by its mtime (as its session's createdAt and updatedAt do).
  const { first, last } = entry
  return (last ?? entry.mtimeMs) >= filters.since && (first ?? entry.mtimeMs) <= filters.until
}
