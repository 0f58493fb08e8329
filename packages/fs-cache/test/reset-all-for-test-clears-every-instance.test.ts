import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { createPathCache, ensureDir } from '@sessiontape/fs-cache'
import { resetAllForTest } from '../src/registry.js'
import { countingFs } from './helpers/counting-fs.js'
import { tempDir } from './helpers/temp-dir.js'

describe('resetAllForTest() clears every cache this package created', () => {
  it('empties all caches, zeroes their counters, and forgets the process-wide ensureDir memo', async () => {
    const dir = await tempDir()
    const one = countingFs()
    const two = countingFs()
    const a = createPathCache({ fs: one.fs })
    const b = createPathCache({ fs: two.fs, max: 4 })
    await a.stat(dir)
    b.realpathSync(dir)
    await a.ensureDir(path.join(dir, 'x'))
    const session = path.join(dir, 'session')
    await ensureDir(session)

    resetAllForTest()

    expect(a.stats()).toEqual({
      hits: 0,
      misses: 0,
      inflightJoins: 0,
      evictions: 0,
      invalidations: 0,
      size: 0,
    })
    expect(b.stats().size).toBe(0)
    one.reset()
    two.reset()
    await a.stat(dir)
    b.realpathSync(dir)
    await a.ensureDir(path.join(dir, 'x'))
    expect(one.calls).toMatchObject({ stat: 1, mkdir: 1 })
    expect(two.calls.realpathSync).toBe(1)
    fs.rmSync(session, { recursive: true })
    await ensureDir(session)
    expect(fs.existsSync(session)).toBe(true)
  })
})
