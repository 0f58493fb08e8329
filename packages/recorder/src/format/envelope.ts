import { ENVELOPE_FIELDS, type SessionRecord } from './record-format.js'

/**
 * True when `value` carries a complete record envelope. Unknown `type`s and extra fields are fine: a
 * reader must stay forward compatible, so only the envelope is checked.
 */
export function hasEnvelope(value: Record<string, unknown>): value is SessionRecord {
  const uuid = value.uuid
  const parentUuid = value.parentUuid
  const type = value.type
  return (
    typeof uuid === 'string' &&
    uuid.length > 0 &&
    (parentUuid === null || typeof parentUuid === 'string') &&
    typeof value.sessionId === 'string' &&
    typeof value.timestamp === 'string' &&
    typeof type === 'string' &&
    type.length > 0 &&
    typeof value.v === 'number'
  )
}

/** The envelope fields that are missing or have the wrong type, for a problem's detail. */
export function envelopeDefects(value: Record<string, unknown>): string[] {
  const defects: string[] = []
  for (const field of ENVELOPE_FIELDS) {
    const got = value[field]
    const ok =
      field === 'parentUuid'
        ? got === null || typeof got === 'string'
        : field === 'v'
          ? typeof got === 'number'
          : typeof got === 'string' && (field === 'sessionId' || field === 'timestamp' || got.length > 0)
    if (!ok) defects.push(field)
  }
  return defects
}
