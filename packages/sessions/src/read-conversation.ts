import { activeBranch, readSession, type SessionRecord } from '@sessiontape/recorder'
import { agentOf, mapperFor } from './formats/index.js'
import type { Conversation, ConversationEvent, TitleEvent } from './model.js'
import { checkOptionsBag, checkReadOptions, invalid, type ReadConversationOptions } from './options.js'

const OPTIONS = ['format', 'signal', 'maxLineBytes'] as const

/** How much a title source is trusted (the recorder's rule: set > generated > summary). */
const TITLE_RANK: Readonly<Record<TitleEvent['source'], number>> = { set: 3, generated: 2, summary: 1 }

/**
 * Reads a whole session into the conversation model: every event in file order, the active branch, the
 * best title, and every problem `readSession()` reports (link problems included). Rejects only when the file
 * cannot be read at all (the fs error as is); damage inside it becomes `problems`. Holds the whole session:
 * use `streamConversation()` for bounded memory.
 */
export async function readConversation(
  file: string,
  options: ReadConversationOptions = {},
): Promise<Conversation> {
  if (typeof file !== 'string' || file === '') throw invalid('file', file, 'a non-empty path')
  const read = checkReadOptions(checkOptionsBag(options, OPTIONS, 'readConversation()'))
  const session = await readSession(file, {
    format: read.format,
    ...(read.signal === undefined ? {} : { signal: read.signal }),
    ...(read.maxLineBytes === undefined ? {} : { maxLineBytes: read.maxLineBytes }),
  })
  const mapper = mapperFor(session.format)
  const events: ConversationEvent[] = []
  /** Each record's event ids, by uuid (the first record of a duplicated uuid, as the recorder links it). */
  const idsOf = new Map<string, string[]>()
  const addRecord = (record: SessionRecord, line: number): void => {
    const mapped = mapper.record(record, line)
    for (const event of mapped) events.push(event)
    if (record.uuid !== '' && !idsOf.has(record.uuid)) {
      idsOf.set(
        record.uuid,
        mapped.filter((event) => event.kind !== 'session').map((event) => event.id),
      )
    }
  }
  const { records, lines, metadata } = session
  // A replay's records are its surviving messages, in conversation order, after its metadata lines (as the
  // stream yields them); other formats interleave records and metadata lines by line.
  const replay = session.format === 'gemini-cli' || session.format === 'gemini-json'
  let r = 0
  for (const meta of metadata) {
    while (!replay && r < records.length && lines[r]! < meta.line) addRecord(records[r]!, lines[r++]!)
    for (const event of mapper.metadata(meta.value, meta.line)) events.push(event)
  }
  while (r < records.length) addRecord(records[r]!, lines[r++]!)
  // Then what a replay took back (Gemini): usage only, on no branch, as the stream yields it.
  for (const taken of session.takenBack) {
    for (const event of mapper.takenBack?.(taken.value, taken.line) ?? []) events.push(event)
  }

  const branch = activeBranch(records)
  const branchIds = branch.records.flatMap((record) => idsOf.get(record.uuid) ?? [])
  let title: string | undefined
  let rank = 0
  let sessionId: string | undefined
  for (const event of events) {
    if (event.kind === 'title' && TITLE_RANK[event.source] >= rank) {
      title = event.title
      rank = TITLE_RANK[event.source]
    } else if (event.kind === 'session' && event.sessionId !== undefined) {
      // The latest wins: a resumed Claude Code file opens with copies of the previous file's records.
      sessionId = event.sessionId
    }
  }
  sessionId ??= records.find((record) => record.sessionId !== '')?.sessionId
  return {
    file,
    format: session.format,
    agent: agentOf(session.format),
    ...(sessionId === undefined ? {} : { sessionId }),
    ...(title === undefined ? {} : { title }),
    events,
    activeBranch: branchIds,
    problems: session.problems,
  }
}
