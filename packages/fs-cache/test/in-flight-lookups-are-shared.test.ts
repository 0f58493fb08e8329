import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { createPathCache } from '@sessiontape/fs-cache'
import { countingFs, deferred, errnoError } from './helpers/counting-fs.js'
import { tempDir } from './helpers/temp-dir.js'

type Cache = ReturnType<typeof createPathCache>
const ops: [string, 'stat' | 'lstat' | 'realpath', (c: Cache, p: string) => Promise<unknown>][] = [
  ['stat', 'stat', (c, p) => c.stat(p)],
  ['lstat', 'lstat', (c, p) => c.lstat(p)],
  ['realpath', 'realpath', (c, p) => c.realpath(p)],
  ['exists', 'stat', (c, p) => c.exists(p)],
  ['isDirectory', 'stat', (c, p) => c.isDirectory(p)],
]

describe('N concurrent async lookups of one key make one syscall', () => {
  it.for(ops)(
    '%s: 32 concurrent cold lookups, 1 syscall, 31 joins, all get the same answer',
    async ([, op, call]) => {
      const dir = await tempDir()
      const counted = countingFs()
      const cache = createPathCache({ fs: counted.fs })
      const answers = await Promise.all(Array.from({ length: 32 }, () => call(cache, dir)))
      expect(counted.calls[op]).toBe(1)
      expect(new Set(answers).size).toBe(1)
      expect(cache.stats()).toMatchObject({ misses: 1, inflightJoins: 31, hits: 0 })
    },
  )

  it('a shared failure reaches every waiter, is not stored, and the next call asks again', async () => {
    const dir = await tempDir()
    const file = path.join(dir, 'x')
    const counted = countingFs()
    const cache = createPathCache({ fs: counted.fs })
    const gate = deferred()
    counted.gate = gate.promise
    const injected = errnoError('EIO', 'stat', file)
    counted.failWith = () => injected
    const waiting = Promise.allSettled(Array.from({ length: 8 }, () => cache.stat(file)))
    gate.resolve()
    const results = await waiting
    expect(results.every((r) => r.status === 'rejected' && r.reason === injected)).toBe(true)
    expect(counted.calls.stat).toBe(1)
    counted.reset()
    fs.writeFileSync(file, 'x')
    await expect(cache.stat(file)).resolves.toMatchObject({ isFile: true, size: 1 })
    expect(counted.calls.stat).toBe(1)
  })

  it('a retry from inside the catch handler asks the file system again instead of joining the failure', async () => {
    const dir = await tempDir()
    const file = path.join(dir, 'x')
    const counted = countingFs()
    const cache = createPathCache({ fs: counted.fs })
    const answer = await cache.stat(file).catch(() => {
      fs.writeFileSync(file, 'ab')
      return cache.stat(file)
    })
    expect(answer).toMatchObject({ isFile: true, size: 2 })
    expect(counted.calls.stat).toBe(2)
  })

  it('a lookup that starts after the shared one settled is a hit, not a join', async () => {
    const dir = await tempDir()
    const counted = countingFs()
    const cache = createPathCache({ fs: counted.fs })
    await Promise.all([cache.realpath(dir), cache.realpath(dir)])
    await cache.realpath(dir)
    expect(counted.calls.realpath).toBe(1)
    expect(cache.stats()).toMatchObject({ misses: 1, inflightJoins: 1, hits: 1 })
  })
})
