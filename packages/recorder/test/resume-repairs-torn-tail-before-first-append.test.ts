import { appendFile, readdir, readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { createRecorder, readSession } from '../src/index.js'
import { withTempDir } from './helpers/records.js'

async function writeSession(dir: string): Promise<{ file: string; clean: Buffer; lastUuid: string }> {
  const first = createRecorder({ dir, sessionId: 's1', meta: false })
  first.record('user', { text: 'Refactor the parser' })
  const lastUuid = first.record('assistant', { text: 'On it.' })
  await first.close()
  return { file: first.filePath, clean: await readFile(first.filePath), lastUuid }
}

describe('resume leaves a torn tail where it is, ends it with a newline and names it in a `recovered` record', () => {
  it.for([
    { name: 'half a record (kill -9 mid-write)', torn: '{"uuid":"3f1c","parentUuid":"a1","type":"assis' },
    { name: 'a NUL run (power cut)', torn: '\0'.repeat(4096) },
    { name: 'a NUL run then half a record', torn: `${'\0'.repeat(100)}\n{"uuid":"3f1c","par` },
  ])('$name', async ({ torn }) => {
    await withTempDir(async (dir) => {
      const { file, clean, lastUuid } = await writeSession(dir)
      await appendFile(file, torn)
      const before = await readFile(file)

      const resumed = createRecorder({ dir, sessionId: 's1', resume: true, meta: false })
      const added = resumed.record('user', { text: 'Where were we?' })
      await resumed.close()

      const bytes = await readFile(file)
      // Append-only: every byte that was there (the torn ones too) is still there, at the same offset.
      expect(bytes.subarray(0, before.length)).toEqual(before)
      // The torn line is ended, then two whole lines follow.
      const rest = bytes.subarray(before.length).toString('utf8')
      expect(rest.startsWith('\n')).toBe(true)
      const newLines = rest.slice(1).split('\n')
      expect(newLines).toHaveLength(3)
      expect(newLines[2]).toBe('')
      const recovered = JSON.parse(newLines[0]!) as Record<string, unknown>
      const next = JSON.parse(newLines[1]!) as Record<string, unknown>
      expect(recovered).toMatchObject({
        type: 'recovered',
        parentUuid: lastUuid,
        reason: 'torn-tail',
        tornOffset: clean.length,
        tornLength: Buffer.byteLength(torn),
      })
      // `recovered` is metadata: the chain goes on from the last conversation record, never from it.
      expect(next).toMatchObject({ uuid: added, parentUuid: lastUuid, type: 'user' })
      // Nothing beside the transcript: no quarantine file, no copy.
      expect((await readdir(dir)).filter((name) => name.startsWith('s1.jsonl.'))).toEqual([])
      // Readers see the named bytes as recovered, not as damage.
      const read = await readSession(file)
      expect(read.problems).toEqual([])
      expect(read.records.map((r) => r.type)).toEqual(['user', 'assistant', 'recovered', 'user'])
    })
  })

  it('a torn tail that already ends with a newline (a garbage line) gets no extra newline', async () => {
    await withTempDir(async (dir) => {
      const { file, clean, lastUuid } = await writeSession(dir)
      await appendFile(file, 'not json at all\n')
      const resumed = createRecorder({ dir, sessionId: 's1', resume: true, meta: false })
      resumed.record('user', { text: 'next' })
      await resumed.close()
      const lines = (await readFile(file, 'utf8')).slice(clean.length).split('\n')
      expect(lines[0]).toBe('not json at all')
      expect(JSON.parse(lines[1]!)).toMatchObject({
        type: 'recovered',
        parentUuid: lastUuid,
        tornOffset: clean.length,
        tornLength: 16,
      })
    })
  })

  it('a complete record that lacks only its newline is kept as a record: resume ends it and chains onto it', async () => {
    await withTempDir(async (dir) => {
      const { file, clean, lastUuid } = await writeSession(dir)
      const whole = `{"uuid":"x","parentUuid":"${lastUuid}","sessionId":"s1","timestamp":"2026-01-01T00:00:00.000Z","type":"user","v":1}`
      await appendFile(file, whole)
      const resumed = createRecorder({ dir, sessionId: 's1', resume: true, meta: false })
      expect(resumed.lastUuid).toBe('x')
      const added = resumed.record('user', { text: 'next' })
      await resumed.close()
      const bytes = await readFile(file, 'utf8')
      expect(bytes.startsWith(clean.toString('utf8') + whole + '\n')).toBe(true)
      const { records, problems } = await readSession(file)
      expect(problems).toEqual([])
      expect(records.map((r) => r.uuid).slice(2)).toEqual(['x', added])
      expect(records[3]?.parentUuid).toBe('x')
    })
  })

  it('continues the parent chain from the last record of a clean transcript, with no recovered record', async () => {
    await withTempDir(async (dir) => {
      const { file, lastUuid } = await writeSession(dir)
      const resumed = createRecorder({ dir, sessionId: 's1', resume: true, meta: false })
      expect(resumed.lastUuid).toBe(lastUuid)
      resumed.record('user', { text: 'next' })
      await resumed.close()
      const { records, problems } = await readSession(file)
      expect(problems).toEqual([])
      expect(records.map((r) => r.type)).toEqual(['user', 'assistant', 'user'])
      expect(records[2]?.parentUuid).toBe(lastUuid)
      expect((await readdir(dir)).filter((name) => name.startsWith('s1.jsonl.'))).toEqual([])
    })
  })
})
