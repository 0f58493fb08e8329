import { InvalidRecordError } from '../../errors.js'
import type { ResolvedOptions, WriterProfile } from '../../options.js'
import { CLAUDE_METADATA_TYPES } from '../../format/agent-record-types.js'
import { RECOVERED_RECORD_TYPE, TITLE_RECORD_TYPE } from '../../format/record-format.js'
import { CONTINUATION_RECORD_TYPE } from '../../format/segments.js'
import { applyToJSON } from '../serialize/serialize-record.js'
import { CODEX_METADATA_TYPES } from './turns/codex.js'

/** What a writer profile changes in `record()`: fields on every line, and which types stay off the chain. */
export interface ProfileRules {
  readonly profile: WriterProfile
  /** Written on every line before the record's own data (which wins); undefined: nothing added. */
  readonly fields: Readonly<Record<string, unknown>> | undefined
  /**
   * Metadata types: they name or explain the session, so they never become a parent (the next record's
   * parent is still the last conversation record). Without an explicit `parentUuid`, ours hang off the
   * record they are about; in the agent profiles they are roots, as the agents' own metadata lines have
   * no parent at all (a parent would show as a fork in their viewers).
   */
  readonly metadataTypes: ReadonlySet<string>
  readonly metadataParentIsNull: boolean
}

const OWN_METADATA = [TITLE_RECORD_TYPE, RECOVERED_RECORD_TYPE, CONTINUATION_RECORD_TYPE]

export function profileRules(options: Pick<ResolvedOptions, 'profile' | 'profileFields'>): ProfileRules {
  const { profile, profileFields } = options
  const agentMetadata =
    profile === 'claude-code' ? CLAUDE_METADATA_TYPES : profile === 'codex' ? CODEX_METADATA_TYPES : []
  return {
    profile,
    // Codex's lines are `{timestamp, type, payload}`: its fields go into session_meta, not on every line.
    fields: profile === 'codex' ? undefined : profileFields,
    metadataTypes: new Set([...OWN_METADATA, ...agentMetadata]),
    metadataParentIsNull: profile !== 'sessiontape',
  }
}

/** The rules of the default profile (this package's records only). */
export const SESSIONTAPE_RULES: ProfileRules = profileRules({
  profile: 'sessiontape',
  profileFields: undefined,
})

/**
 * `data` with the profile's fields in front (the record's own fields win). `toJSON` is applied first, as
 * the serializer would, so what the caller's object says it is stays what is written.
 */
export function withProfileFields(data: unknown, fields: Readonly<Record<string, unknown>>): object {
  const value = applyToJSON(data)
  if (value === undefined) return { ...fields }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    // Not data the serializer accepts: let it throw its own message.
    return value as object
  }
  return { ...fields, ...value }
}

// Four-digit year, a time, and a zone: what `Date` reads the same way everywhere (no local-time guesses).
const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/
const MAX_YEAR = 9999

/**
 * The timestamp a caller gave for a record (an import of history), validated and written in UTC like the
 * recorder's own: `YYYY-MM-DDTHH:mm:ss.sssZ`. The envelope writes it without escaping, so only this exact
 * shape may reach it.
 */
export function recordTimestamp(given: unknown): string {
  let time: number
  if (given instanceof Date) time = given.getTime()
  else if (typeof given === 'string' && ISO_WITH_ZONE.test(given)) time = Date.parse(given)
  else time = Number.NaN
  const date = new Date(time)
  if (!Number.isFinite(time) || date.getUTCFullYear() < 0 || date.getUTCFullYear() > MAX_YEAR) {
    throw new InvalidRecordError(
      `Expected \`timestamp\` to be an ISO 8601 date-time with a time zone (e.g. 2025-07-01T10:00:00Z) or a valid Date in years 0000–9999, got \`${describe(given)}\` (${typeof given})`,
    )
  }
  return date.toISOString()
}

function describe(value: unknown): string {
  if (value instanceof Date) return 'Invalid Date'
  try {
    return String(value)
  } catch {
    return Object.prototype.toString.call(value)
  }
}
