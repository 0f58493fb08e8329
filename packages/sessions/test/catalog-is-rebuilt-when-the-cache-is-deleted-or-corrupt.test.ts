import { readdir, readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { catalogSessions, searchSessions } from '../src/index.js'
import { parseQuery } from '../src/search/query.js'
import { columnBytes, FILTER_COLUMNS, queryColumns } from '../src/search/trigram-filter.js'
import { withTemp, writeClaudeSession } from './helpers/claude-sessions.js'

const CWD = '/home/dev/app'

async function shardFiles(cacheDir: string): Promise<string[]> {
  const dir = path.join(cacheDir, 'catalog-v3')
  return (await readdir(dir)).map((name) => path.join(dir, name))
}

/** Where a shard's filter table starts (format in src/catalog/cache-store.ts): after its index and digests. */
function tableStart(bytes: Buffer): number {
  const digestsLengthAt = 12 + bytes.readUInt32LE(8) + 4
  return digestsLengthAt + 4 + bytes.readUInt32LE(digestsLengthAt) + 8
}

/** Damages a shard's filter table and leaves its index and digests intact. */
async function damageTable(
  file: string,
  how: 'zero the query runs' | 'flip a bit per run' | 'cut',
): Promise<void> {
  const bytes = await readFile(file)
  const tableAt = tableStart(bytes)
  const rows = bytes.readUInt32LE(tableAt - 4)
  if (rows === 0) return
  const pitch = columnBytes(rows) + 4
  expect(bytes.length).toBe(tableAt + FILTER_COLUMNS * pitch + 4)
  if (how === 'cut') return await writeFile(file, bytes.subarray(0, tableAt + 100))
  if (how === 'zero the query runs') {
    for (const column of queryColumns(parseQuery('quokkaflag').keys))
      bytes.fill(0, tableAt + column * pitch, tableAt + column * pitch + pitch)
  } else {
    for (let column = 0; column < FILTER_COLUMNS; column++) bytes[tableAt + column * pitch]! ^= 0x01
  }
  await writeFile(file, bytes)
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
        ['truncated', (file) => writeFile(file, 'STCAT06\n\x10\x00')],
        ['cut short', async (file) => writeFile(file, (await readFile(file)).subarray(0, 40))],
        [
          'a byte of its index changed',
          async (file) => {
            const bytes = await readFile(file)
            // Inside the index (after the 12-byte header): a digit of a size or a letter of a path.
            bytes[12 + Math.floor(bytes.readUInt32LE(8) / 2)]! ^= 0x01
            await writeFile(file, bytes)
          },
        ],
        [
          'a byte of its digests changed',
          async (file) => {
            const bytes = await readFile(file)
            // Inside the digests (a count, a title's letter), which a search parses only when asked for.
            const digestsLengthAt = 12 + bytes.readUInt32LE(8) + 4
            bytes[digestsLengthAt + 4 + Math.floor(bytes.readUInt32LE(digestsLengthAt) / 2)]! ^= 0x01
            await writeFile(file, bytes)
          },
        ],
        ['garbage', (file) => writeFile(file, Buffer.alloc(4096, 0xab))],
        // The search filters, transposed after the JSON: the runs a query for the word reads, zeroed (they
        // would rule every file out), one bit of every run flipped, the table cut short or grown.
        ['its query buckets zeroed', (file) => damageTable(file, 'zero the query runs')],
        ['a bit of each bucket flipped', (file) => damageTable(file, 'flip a bit per run')],
        ['its table cut short', (file) => damageTable(file, 'cut')],
        [
          'bytes after its table',
          async (file) => writeFile(file, Buffer.concat([await readFile(file), Buffer.alloc(9)])),
        ],
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
    // Eleven kinds of damage, each a rebuild of every shard, a listing and a search: 11 s at load 9, past the
    // project's 20 s at load ~17 (the CPU-hog sweep beside other work). The timeout only catches a hang.
  }, 120_000)
})
