import { readdir, readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { catalogSessions, searchSessions } from '../src/index.js'
import { withTemp, writeClaudeSession } from './helpers/claude-sessions.js'

const CWD = '/home/dev/app'

async function shardFiles(cacheDir: string): Promise<string[]> {
  const dir = path.join(cacheDir, 'catalog-v1')
  return (await readdir(dir)).map((name) => path.join(dir, name))
}

describe('the catalog is a cache: deleted or corrupt, it is rebuilt from the files', () => {
  it('lists and searches the same after the cache is deleted, truncated or overwritten', async () => {
    await withTemp(async (root) => {
      const projects = path.join(root, 'projects')
      const cacheDir = path.join(root, 'cache')
      for (let i = 0; i < 6; i++) {
        await writeClaudeSession(projects, `0000000${i}-aaaa-4000-8000-000000000000`, CWD, [
          { user: `question number ${i} about the parser`, assistant: `answer ${i}` },
        ])
      }
      await writeClaudeSession(projects, '00000009-aaaa-4000-8000-000000000000', CWD, [
        { user: 'where is the quokkaflag defined', assistant: 'in flags.ts' },
      ])
      const options = { dirs: [projects], cacheDir }
      const first = await catalogSessions(options)
      const firstHits = (await searchSessions('quokkaflag', options)).hits
      expect(first).toHaveLength(7)
      expect(firstHits.map((hit) => hit.sessionId)).toEqual(['00000009-aaaa-4000-8000-000000000000'])

      const damage: [string, (file: string) => Promise<void>][] = [
        ['deleted', (file) => rm(file)],
        ['truncated', (file) => writeFile(file, 'STCAT03\n\x10\x00')],
        ['cut short', async (file) => writeFile(file, (await readFile(file)).subarray(0, 40))],
        [
          'a byte of its JSON changed',
          async (file) => {
            const bytes = await readFile(file)
            // Inside the JSON part (after the 12-byte header): a digit of a count or a letter of a path.
            bytes[12 + Math.floor(bytes.readUInt32LE(8) / 2)]! ^= 0x01
            await writeFile(file, bytes)
          },
        ],
        ['garbage', (file) => writeFile(file, Buffer.alloc(4096, 0xab))],
        ['empty', (file) => writeFile(file, '')],
      ]
      for (const [, harm] of damage) {
        for (const file of await shardFiles(cacheDir)) await harm(file)
        expect(await catalogSessions(options)).toEqual(first)
        expect((await searchSessions('quokkaflag', options)).hits).toEqual(firstHits)
      }
      await rm(cacheDir, { recursive: true })
      expect(await catalogSessions(options)).toEqual(first)
      expect((await searchSessions('quokkaflag', options)).hits).toEqual(firstHits)
    })
  })
})
