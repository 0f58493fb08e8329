import { appendFile, readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
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

describe('resume repairs a torn tail before the first append, so nothing is ever glued onto a fragment', () => {
  it.for([
    { name: 'half a record (kill -9 mid-write)', torn: '{"uuid":"3f1c","parentUuid":"a1","type":"assis' },
    { name: 'a NUL run (power cut)', torn: '\0'.repeat(4096) },
    {
      name: 'a complete record without its newline',
      torn: '{"uuid":"x","parentUuid":null,"sessionId":"s1","timestamp":"t","type":"user","v":1}',
    },
  ])('$name', async ({ torn }) => {
    await withTempDir(async (dir) => {
      const { file, clean, lastUuid } = await writeSession(dir)
      await appendFile(file, torn)

      const resumed = createRecorder({ dir, sessionId: 's1', resume: true, meta: false })
      const added = resumed.record('user', { text: 'Where were we?' })
      await resumed.close()

      const bytes = await readFile(file)
      // The old bytes are untouched, the fragment is gone, and two whole lines follow.
      expect(bytes.subarray(0, clean.length)).toEqual(clean)
      const newLines = bytes.subarray(clean.length).toString('utf8').split('\n')
      expect(newLines).toHaveLength(3)
      expect(newLines[2]).toBe('')
      const recovered = JSON.parse(newLines[0]!) as Record<string, unknown>
      const next = JSON.parse(newLines[1]!) as Record<string, unknown>
      expect(recovered).toMatchObject({
        type: 'recovered',
        parentUuid: lastUuid,
        quarantinedBytes: Buffer.byteLength(torn),
      })
      expect(next).toMatchObject({ uuid: added, parentUuid: recovered.uuid, type: 'user' })

      // The torn bytes were moved, not deleted: the quarantine file holds them byte for byte.
      const quarantine = (await readdir(dir)).filter((name) => name.startsWith('s1.jsonl.torn-'))
      expect(quarantine).toHaveLength(1)
      expect(recovered.quarantinePath).toBe(path.join(dir, quarantine[0]!))
      expect(await readFile(path.join(dir, quarantine[0]!), 'utf8')).toBe(torn)
      expect((await readSession(file)).problems).toEqual([])
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
      expect((await readdir(dir)).filter((name) => name.includes('.torn-'))).toEqual([])
    })
  })
})
