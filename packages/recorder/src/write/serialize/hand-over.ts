import { InvalidRecordError, RecordTooLargeError } from '../../errors.js'
import {
  bytesOverLimit,
  dataLine,
  type QueuedRecord,
  refuseEnvelopeKeys,
  unserializableLine,
} from './serialize-record.js'

export interface HandOverSettings {
  readonly maxRecordBytes: number | undefined
  /** The data could not become a line; it was replaced by an error line (see {@link unserializableLine}). */
  readonly onUnserializable: (uuid: string, type: string, error: InvalidRecordError) => void
}

/**
 * One slice of the walk of a record handed over, until `deadline` (a `performance.now()` time): its line
 * once the walk is done, `null` while it is not. The queue calls it for its head record only, so the walks
 * run one at a time, in order, on the writer's turns and within its CPU budget — and a line that comes out
 * bigger than `maxQueueChars` is the one record past the bound (nothing behind an unwalked record may take
 * that place: see RecordQueue.admits).
 *
 * What cannot be told at the call — a cycle, a BigInt, a throwing getter or `toJSON`, a line over
 * `maxRecordBytes`, an envelope key added to the data after `record()` returned — makes the line an error
 * line instead: the envelope and `recordError` (just its code when the message would not fit
 * `maxRecordBytes`; `record()` made sure that one fits), so the chain holds.
 */
export function walkHandedOver(
  entry: QueuedRecord,
  uuid: string,
  deadline: number,
  s: HandOverSettings,
): QueuedRecord | null {
  const handedOver = entry.handedOver!
  const max = s.maxRecordBytes
  try {
    if (!handedOver.checked) {
      // Checked again just before the walk reads the top level: the data is the caller's until then, and
      // an envelope key added meanwhile would forge the envelope (two `uuid`s on one line).
      handedOver.checked = true
      refuseEnvelopeKeys(handedOver.data)
    }
    if (!handedOver.walk.step(deadline)) return null
    const line = dataLine(entry.head, handedOver.walk.result())
    const over = max === undefined ? null : bytesOverLimit(line, max)
    if (over !== null) throw new RecordTooLargeError(handedOver.type, over, max!)
    return line
  } catch (thrown) {
    const error =
      thrown instanceof InvalidRecordError
        ? thrown
        : new InvalidRecordError(`Record data cannot be serialized to JSON: ${describe(thrown)}`, {
            cause: thrown,
          })
    let line = unserializableLine(entry, error)
    // An error line too long for maxRecordBytes keeps only the code (record() made sure that one fits).
    if (max !== undefined && bytesOverLimit(line, max) !== null)
      line = unserializableLine(entry, error, false)
    s.onUnserializable(uuid, handedOver.type, error)
    return line
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message
  try {
    return String(error)
  } catch {
    return Object.prototype.toString.call(error)
  }
}
