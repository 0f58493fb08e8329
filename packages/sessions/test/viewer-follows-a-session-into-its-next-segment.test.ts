/**
 * A live session of ours kept in segments (`<id>.jsonl`, `<id>~2.jsonl`, …: recorder/src/format/segments.ts):
 * the viewer shows all its files as one session, each record once (a record a segment carried again too),
 * follows the last file as it grows, and, when the session goes on in a new segment, tells the page
 * (`reset`, `continued`) and shows it again from its first file — every turn once, never another session's.
 */
import { appendFileSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CONTINUATION_RECORD_TYPE, FORMAT_VERSION, segmentFileName } from '@sessiontape/recorder'
import type { Turn } from '../src/export/turns.js'
import { LiveSession } from '../src/view/live-session.js'
import { writeSegmentedSession } from '../../recorder/test/helpers/segmented-session.js'

type Message = { kind: 'reset'; reason: string } | { kind: 'turns'; from: number; turns: readonly Turn[] }

function follow(file: string): { live: LiveSession; messages: Message[] } {
  const messages: Message[] = []
  const live = new LiveSession(file, 'auto', {
    turns: (message) => messages.push({ kind: 'turns', from: message.from, turns: message.turns }),
    branch: () => {},
    pending: () => {},
    reset: (message) => messages.push({ kind: 'reset', reason: message.reason }),
    drained: () => undefined,
  })
  return { live, messages }
}

/** What the page shows after these messages: turns replaced from each message's `from`, dropped on reset. */
function shown(messages: readonly Message[]): string {
  let turns: Turn[] = []
  for (const m of messages) {
    if (m.kind === 'reset') turns = []
    else turns = [...turns.slice(0, m.from), ...m.turns]
  }
  return JSON.stringify(turns)
}

const count = (text: string, word: string): number => text.split(word).length - 1

const line = (
  sessionId: string,
  uuid: string,
  parentUuid: string | null,
  type: string,
  data: object,
): string =>
  `${JSON.stringify({ uuid, parentUuid, sessionId, timestamp: '2026-11-28T12:00:00.000Z', type, v: FORMAT_VERSION, ...data })}\n`

describe('the viewer follows a session kept in segments', () => {
  it('shows every file once, follows the last one, and goes on into a new segment', async () => {
    const session = await writeSegmentedSession(mkdtempSync(join(tmpdir(), 'st-view-seg-')))
    const { live, messages } = follow(session.files[0]!)
    await live.poll()
    for (const word of session.words) expect([word, count(shown(messages), word)]).toEqual([word, 1])

    // The last segment grows: only the new turn comes, no reset.
    appendFileSync(
      session.files[2]!,
      line(session.sessionId, 'g1', session.uuids.at(-1)!, 'user', { text: 'golf says user' }),
    )
    const before = messages.length
    await live.poll()
    expect(messages.slice(before).some((m) => m.kind === 'reset')).toBe(false)
    expect(count(shown(messages), 'golf')).toBe(1)

    // The session goes on in segment 4: the page is told, then shown every turn once, the new one too.
    writeFileSync(
      join(session.dir, segmentFileName(session.sessionId, 4)),
      line(session.sessionId, 'c4', 'g1', CONTINUATION_RECORD_TYPE, {
        continues: segmentFileName(session.sessionId, 3),
        segment: 4,
        reason: 'changed',
        carried: 1,
      }) +
        line(session.sessionId, 'g1', session.uuids.at(-1)!, 'user', { text: 'golf says user' }) +
        line(session.sessionId, 'h1', 'g1', 'assistant', { text: 'hotel says assistant' }),
    )
    const rolled = messages.length
    await live.poll()
    expect(messages[rolled]).toEqual({ kind: 'reset', reason: 'continued' })
    const page = shown(messages)
    for (const word of [...session.words, 'golf', 'hotel'])
      expect([word, count(page, word)]).toEqual([word, 1])
    await live.close()
  })
})
