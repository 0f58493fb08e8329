import { writeFile } from 'node:fs/promises'
import path from 'node:path'

import { FORMAT_VERSION } from '../../src/format/record-format.js'
import {
  CONTINUATION_RECORD_TYPE,
  continuationData,
  segmentFileName,
  type Continuation,
} from '../../src/format/segments.js'

/**
 * A session kept in three files, built byte by byte as format/segments.ts describes them, so each test states
 * what is on disk: the path holds a user turn and the assistant's answer; segment 2 continues it after a
 * change (carrying the answer again, as a writer re-writes a record it could not confirm), then a tool call
 * and its result; segment 3 continues after a move, with the last turn. Every record has a distinct word
 * (`alpha` … `zeta`) so a reader's output shows each once or not.
 */
export interface SegmentedSession {
  readonly dir: string
  readonly sessionId: string
  readonly files: readonly string[]
  /** The conversation's records, in order, each once (the continuation records not included). */
  readonly uuids: readonly string[]
  readonly words: readonly string[]
  /** The usage the session's assistant turns carry, each counted once (turns 2 and 6). */
  readonly usage: { readonly inputTokens: number; readonly outputTokens: number }
}

export const SEGMENTED_SESSION_ID = 'seg-session'

const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot'] as const

export async function writeSegmentedSession(
  dir: string,
  sessionId = SEGMENTED_SESSION_ID,
): Promise<SegmentedSession> {
  let second = 0
  const line = (
    uuid: string,
    parentUuid: string | null,
    type: string,
    data: Record<string, unknown>,
  ): string =>
    `${JSON.stringify({
      uuid,
      parentUuid,
      sessionId,
      timestamp: new Date(Date.UTC(2026, 10, 28, 10, 0, second++)).toISOString(),
      type,
      v: FORMAT_VERSION,
      ...data,
    })}\n`
  const uuid = (i: number): string => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`
  // Our own record shapes (docs/conversation-model.md): what show, export, search and usage read.
  const message = (i: number, role: 'user' | 'assistant'): string =>
    line(uuid(i), i === 1 ? null : uuid(i - 1), role, {
      text: `${WORDS[i - 1]} says ${role}`,
      ...(role === 'assistant'
        ? { model: 'test-model', usage: { inputTokens: 100 * i, outputTokens: 10 * i } }
        : {}),
    })
  const continuation = (id: number, parent: number, c: Continuation): string =>
    line(uuid(100 + id), uuid(parent), CONTINUATION_RECORD_TYPE, continuationData(c))
  const toolCall = line(uuid(3), uuid(2), 'tool_call', {
    callId: 'call-1',
    name: 'read_file',
    input: { path: 'notes.txt', note: WORDS[2] },
  })
  const toolResult = line(uuid(4), uuid(3), 'tool_result', { callId: 'call-1', output: `${WORDS[3]} result` })
  const head = path.join(dir, `${sessionId}.jsonl`)
  const two = path.join(dir, segmentFileName(sessionId, 2))
  const three = path.join(dir, segmentFileName(sessionId, 3))
  // The path: records 1 and 2 — the second also carried into segment 2, as if it had not been confirmed.
  await writeFile(head, message(1, 'user') + message(2, 'assistant'))
  await writeFile(
    two,
    continuation(1, 2, { continues: `${sessionId}.jsonl`, segment: 2, reason: 'changed', carried: 1 }) +
      message(2, 'assistant') +
      toolCall +
      toolResult,
  )
  await writeFile(
    three,
    continuation(2, 4, { continues: path.basename(two), segment: 3, reason: 'moved', carried: 0 }) +
      message(5, 'user') +
      message(6, 'assistant'),
  )
  return {
    dir,
    sessionId,
    files: [head, two, three],
    uuids: [1, 2, 3, 4, 5, 6].map(uuid),
    words: WORDS,
    usage: { inputTokens: 800, outputTokens: 80 },
  }
}
