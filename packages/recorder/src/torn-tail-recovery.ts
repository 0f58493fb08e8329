import { RECOVERED_RECORD_TYPE } from './record-format.js'
import { type SerializedRecord, serializeRecord } from './serialize-record.js'

/** A torn tail found by `resume`, to be quarantined before the first write. */
export interface PendingRepair {
  readonly validLength: number
  readonly tornBytes: number
  /** uuid of the queued `recovered` record, whose text is completed once the repair has run. */
  readonly uuid: string
  readonly parentUuid: string | null
  readonly timestamp: string
}

/**
 * The `recovered` record that stands in a resumed transcript for its torn tail. It is queued (with no
 * quarantine path yet) as soon as the torn tail is found, and its text is replaced with the repair's outcome
 * once the repair has run, before anything is written.
 */
export function recoveredRecord(
  repair: PendingRepair,
  sessionIdJson: string,
  quarantinePath: string | null,
  quarantinedBytes: number,
): SerializedRecord {
  return serializeRecord(
    {
      uuid: repair.uuid,
      parentUuid: repair.parentUuid,
      sessionIdJson,
      timestamp: repair.timestamp,
      type: RECOVERED_RECORD_TYPE,
    },
    {
      reason: 'torn-tail',
      tornBytes: repair.tornBytes,
      validLength: repair.validLength,
      quarantinePath,
      quarantinedBytes,
    },
    undefined,
  )
}
