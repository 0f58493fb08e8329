export {
  ENVELOPE_FIELDS,
  FORMAT_VERSION,
  FORMAT_VERSION_FIELD,
  SESSION_ID_PATTERN,
  isValidSessionId,
  metaFileName,
  transcriptFileName,
  type EnvelopeField,
  type RecordEnvelope,
  type SessionRecord,
} from './record-format.js'
