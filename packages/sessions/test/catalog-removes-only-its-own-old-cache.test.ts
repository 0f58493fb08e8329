import { mkdir, readdir, readlink, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { catalogSessions } from '../src/index.js'
import { withTemp, writeClaudeSession } from './helpers/claude-sessions.js'

const ID = '44444444-aaaa-4000-8000-000000000000'

describe('the older catalog-v1 cache is removed, and nothing else', () => {
  it('its shards and temp files go; a file it did not write keeps the directory', async () => {
    await withTemp(async (root) => {
      const projects = path.join(root, 'projects')
      const cacheDir = path.join(root, 'cache')
      await writeClaudeSession(projects, ID, '/home/dev/app', [{ user: 'hello', assistant: 'ok' }])
      const old = path.join(cacheDir, 'catalog-v1')
      // A cache directory of ours (0700): one others may enter is not used at all (private-dir.ts).
      await mkdir(old, { recursive: true, mode: 0o700 })
      for (const name of ['00.bin', '31.bin', '07.bin.123.0a1b2c3d.tmp', 'notes.txt'])
        await writeFile(path.join(old, name), 'x')
      await catalogSessions({ dirs: [projects], cacheDir })
      expect(await readdir(old)).toEqual(['notes.txt'])
    })
  })

  it('emptied, the directory goes too (catalog-v2 as well)', async () => {
    await withTemp(async (root) => {
      const projects = path.join(root, 'projects')
      const cacheDir = path.join(root, 'cache')
      await writeClaudeSession(projects, ID, '/home/dev/app', [{ user: 'hello', assistant: 'ok' }])
      await mkdir(path.join(cacheDir, 'catalog-v1'), { recursive: true, mode: 0o700 })
      await writeFile(path.join(cacheDir, 'catalog-v1', '05.bin'), 'x')
      await mkdir(path.join(cacheDir, 'catalog-v2'), { recursive: true })
      await writeFile(path.join(cacheDir, 'catalog-v2', '05.bin'), 'x')
      await catalogSessions({ dirs: [projects], cacheDir })
      expect((await readdir(cacheDir)).sort()).toEqual(['catalog-v3'])
    })
  })

  it('a catalog-v1 that is a link: the link and what it points to are left alone', async () => {
    await withTemp(async (root) => {
      const projects = path.join(root, 'projects')
      const cacheDir = path.join(root, 'cache')
      const elsewhere = path.join(root, 'elsewhere')
      await writeClaudeSession(projects, ID, '/home/dev/app', [{ user: 'hello', assistant: 'ok' }])
      await mkdir(elsewhere)
      await writeFile(path.join(elsewhere, '00.bin'), 'not the cache')
      await mkdir(cacheDir, { mode: 0o700 })
      await symlink(elsewhere, path.join(cacheDir, 'catalog-v1'))
      await catalogSessions({ dirs: [projects], cacheDir })
      expect(await readlink(path.join(cacheDir, 'catalog-v1'))).toBe(elsewhere)
      expect(await readdir(elsewhere)).toEqual(['00.bin'])
    })
  })
})
