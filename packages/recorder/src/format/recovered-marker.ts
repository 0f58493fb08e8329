import { RECOVERED_RECORD_TYPE, type SessionRecord } from './record-format.js'

/** The byte range of torn bytes a `recovered` record names (append-only recovery after a crash). */
export interface TornRange {
  /** Byte offset where the torn bytes start. */
  readonly offset: number
  /** Number of torn bytes, not counting the newline the writer appended after them. */
  readonly length: number
}

/**
 * The range a `recovered` record of the append-only shape names (`reason: 'torn-tail'`, `tornOffset`,
 * `tornLength`), or undefined for any other record — including the older shape that truncated and
 * quarantined (`quarantinePath`, `validLength`, …), which is read as a plain record.
 */
export function tornRangeOf(record: SessionRecord): TornRange | undefined {
  if (record.type !== RECOVERED_RECORD_TYPE || record.reason !== 'torn-tail') return undefined
  const offset = record.tornOffset
  const length = record.tornLength
  if (!(Number.isSafeInteger(offset) && Number.isSafeInteger(length))) return undefined
  if ((offset as number) < 0 || (length as number) <= 0) return undefined
  return { offset: offset as number, length: length as number }
}
