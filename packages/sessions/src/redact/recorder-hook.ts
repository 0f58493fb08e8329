import type { SessionRecord } from '@sessiontape/recorder'
import { Redactor, type RedactionReport } from './redactor.js'

/** Options of {@link redactRecordHook}. */
export interface RedactHookOptions {
  /**
   * Called after a record in which secrets were replaced, with what this record had. Called synchronously
   * from inside `record()`: keep it cheap; an exception it throws is ignored.
   */
  readonly onRedact?: (report: RedactionReport) => void
}

/**
 * A ready-made `redact` option for `createRecorder`: every string of a record (keys included) has its
 * secrets replaced by `[REDACTED:<kind>]` before it is written, with the same detector as export's `--redact`.
 *
 * @example createRecorder({ dir, redact: redactRecordHook() })
 */
export function redactRecordHook(
  options: RedactHookOptions = {},
): (record: SessionRecord) => Record<string, unknown> {
  if (options.onRedact !== undefined && typeof options.onRedact !== 'function') {
    throw new TypeError(
      `Expected \`onRedact\` to be a function, got \`${String(options.onRedact)}\` (${typeof options.onRedact})`,
    )
  }
  const { onRedact } = options
  return (record) => {
    const redactor = new Redactor()
    const out = redactor.redactValue(record) as Record<string, unknown>
    if (onRedact !== undefined) {
      const report = redactor.report()
      if (report.total > 0) {
        try {
          onRedact(report)
        } catch {
          // A reporting callback must not make record() throw: the record is already redacted.
        }
      }
    }
    return out
  }
}
