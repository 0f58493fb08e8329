import { readdir, readFile, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { inspectTailSync, repairTornTail, repairTornTailSync } from '../src/index.js'
import { makeChain, toJsonl, withTempDir } from './helpers/records.js'

const variants = [
  { name: 'repairTornTail', repair: repairTornTail },
  {
    name: 'repairTornTailSync',
    repair: (file: string, o: { validLength: number }) =>
      Promise.resolve().then(() => repairTornTailSync(file, o)),
  },
]

describe.for(variants)('$name moves the torn tail to a quarantine sidecar, then truncates', ({ repair }) => {
  it('keeps the torn bytes in a new sidecar next to the transcript and truncates to the last valid line', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      const clean = toJsonl(makeChain(3))
      const torn = '{"uuid":"u3","par\0\0\0'
      await writeFile(file, clean + torn)
      const { validLength } = inspectTailSync(file)
      const result = await repair(file, { validLength })
      expect(result.quarantinedBytes).toBe(Buffer.byteLength(torn))
      expect(path.dirname(result.quarantinePath!)).toBe(dir)
      expect(path.basename(result.quarantinePath!)).toMatch(/^s1\.jsonl\.torn-\d{8}T\d{9}Z$/)
      expect(await readFile(result.quarantinePath!, 'utf8')).toBe(torn)
      expect(await readFile(file, 'utf8')).toBe(clean)
      expect((await stat(result.quarantinePath!)).mode & 0o777).toBe(0o600)
    })
  })

  it('is a no-op when nothing is torn', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      const clean = toJsonl(makeChain(2))
      await writeFile(file, clean)
      expect(await repair(file, { validLength: clean.length })).toEqual({
        quarantinePath: null,
        quarantinedBytes: 0,
      })
      expect(await readdir(dir)).toEqual(['s1.jsonl'])
    })
  })

  it('never overwrites an earlier quarantine file', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      const clean = toJsonl(makeChain(1))
      const paths = new Set<string>()
      for (const torn of ['first', 'second', 'third']) {
        await writeFile(file, clean + torn)
        const result = await repair(file, { validLength: clean.length })
        paths.add(result.quarantinePath!)
        expect(await readFile(result.quarantinePath!, 'utf8')).toBe(torn)
      }
      expect(paths.size).toBe(3)
      expect((await readdir(dir)).length).toBe(4)
    })
  })

  it.for([-1, 1.5, Number.NaN])('rejects validLength %s before touching the file', async (validLength) => {
    await expect(repair('/nonexistent', { validLength })).rejects.toThrow(
      /Expected `validLength` to be a non-negative integer/,
    )
  })
})
