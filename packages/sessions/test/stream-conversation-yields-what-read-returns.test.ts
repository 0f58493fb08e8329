import { readdirSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { ReadProblem, TranscriptFormat } from '@sessiontape/recorder'
import { readConversation, streamConversation, type ConversationEvent } from '@sessiontape/sessions'
import { samplesOf } from './helpers/samples.js'

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures')
const files = [
  ...readdirSync(fixtures)
    .filter((name) => /\.jsonl?$/.test(name))
    .map((name) => path.join(fixtures, name)),
  ...['claude-code', 'qwen-code', 'gemini-cli'].flatMap(samplesOf),
]

async function collect(file: string) {
  const events: ConversationEvent[] = []
  const problems: ReadProblem[] = []
  let format: TranscriptFormat | undefined
  for await (const event of streamConversation(file, {
    onProblem: (p) => problems.push(p),
    onFormat: (f) => (format = f),
  })) {
    events.push(event)
  }
  return { events, problems, format }
}

describe('streamConversation', () => {
  it.for(files.map((file) => [path.basename(file), file]))(
    'yields the events readConversation returns: %s',
    async ([, file]) => {
      const streamed = await collect(file!)
      const read = await readConversation(file!)
      expect(streamed.format).toBe(read.format)
      expect(streamed.events).toEqual(read.events)
    },
  )

  it('reports line-level problems through onProblem and keeps the events around them', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'sessions-stream-'))
    try {
      const file = path.join(dir, 'damaged.jsonl')
      const line = (uuid: string, parentUuid: string | null, text: string) =>
        JSON.stringify({
          uuid,
          parentUuid,
          sessionId: 's',
          timestamp: '2026-01-01T00:00:00.000Z',
          type: 'user',
          v: 1,
          text,
        })
      await writeFile(file, `${line('a', null, 'one')}\nnot json\n${line('b', 'a', 'two')}\n{"uuid":"c","par`)
      const { events, problems } = await collect(file)
      expect(events.map((e) => [e.kind, e.id])).toEqual([
        ['user', 'a'],
        ['user', 'b'],
      ])
      expect(problems.map((p) => [p.kind, p.line])).toEqual([
        ['invalid-json', 2],
        ['torn-tail', 4],
      ])
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
