import { mkdir, open } from 'node:fs/promises'
import path from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { CatalogStore, MAX_SHARD_BYTES } from '../src/catalog/cache-store.js'
import { withTemp } from './helpers/claude-sessions.js'

afterEach(() => {
  vi.restoreAllMocks()
})

describe('a cache file is read within a bound, whatever it claims', () => {
  it('a shard far bigger than any we write is not read into memory: it is treated as empty', async () => {
    await withTemp(async (root) => {
      const dir = path.join(root, 'cache', 'catalog-v3')
      await mkdir(dir, { recursive: true })
      // A sparse file (no disk used) that starts like a shard whose index is the whole file.
      const size = MAX_SHARD_BYTES + 64 * 1024 * 1024
      const handle = await open(path.join(dir, '00.bin'), 'w')
      const header = Buffer.alloc(12)
      header.write('STCAT06\n', 0, 'latin1')
      header.writeUInt32LE(size - 20, 8)
      await handle.write(header, 0, 12, 0)
      await handle.truncate(size)
      await handle.close()
      const allocations: number[] = []
      const allocUnsafe = Buffer.allocUnsafe.bind(Buffer)
      vi.spyOn(Buffer, 'allocUnsafe').mockImplementation((length: number) => {
        allocations.push(length)
        return allocUnsafe(length)
      })
      const store = new CatalogStore(path.join(root, 'cache'))
      for (const filters of ['entries', 'all', [1, 2, 3]] as const)
        expect((await store.load(0, filters)).size).toBe(0)
      expect(Math.max(0, ...allocations)).toBeLessThanOrEqual(1024 * 1024)
    })
  })
})
