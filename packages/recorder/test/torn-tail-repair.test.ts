import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { inspectTailSync, readSession, repairTornTail, repairTornTailSync } from '../src/index.js'
import { makeChain, toJsonl, withTempDir } from './helpers/records.js'
import { filesIn } from './helpers/sessions.js'

const variants = [
  { name: 'repairTornTail', repair: repairTornTail },
  {
    name: 'repairTornTailSync',
    repair: (file: string, o?: { validLength?: number }) =>
      Promise.resolve().then(() => repairTornTailSync(file, o)),
  },
]

describe.for(variants)('$name repairs a torn tail append-only, as a resume does', ({ repair }) => {
  it('leaves the torn bytes in place, ends them with a newline and appends a `recovered` record naming them', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      const clean = toJsonl(makeChain(3))
      const torn = '{"uuid":"u3","par\0\0\0'
      await writeFile(file, clean + torn)
      const { validLength } = inspectTailSync(file)
      const result = await repair(file, { validLength })
      expect(result).toMatchObject({ tornOffset: clean.length, tornLength: Buffer.byteLength(torn) })
      const text = await readFile(file, 'utf8')
      expect(text.startsWith(`${clean}${torn}\n`)).toBe(true)
      const recovered = JSON.parse(text.slice(clean.length + torn.length + 1)) as Record<string, unknown>
      expect(recovered).toMatchObject({
        uuid: result!.recoveredUuid,
        type: 'recovered',
        parentUuid: 'u2',
        sessionId: 's1',
        reason: 'torn-tail',
        tornOffset: clean.length,
        tornLength: Buffer.byteLength(torn),
      })
      // Nothing beside the transcript, and readers see a clean file.
      expect(await filesIn(dir)).toEqual(['s1.jsonl'])
      expect((await readSession(file)).problems).toEqual([])
    })
  })

  it('is a no-op when nothing is torn', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      const clean = toJsonl(makeChain(2))
      await writeFile(file, clean)
      expect(await repair(file)).toEqual({ recoveredUuid: null, tornOffset: clean.length, tornLength: 0 })
      expect(await readFile(file, 'utf8')).toBe(clean)
      expect(await filesIn(dir)).toEqual(['s1.jsonl'])
    })
  })

  it('refuses a file that is not ours and leaves it byte for byte', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 'other.jsonl')
      const foreign = '{"parentUuid":null,"type":"user","message":{}}\n{"half":'
      await writeFile(file, foreign)
      await expect(repair(file)).rejects.toMatchObject({ code: 'ERR_FOREIGN_FILE' })
      expect(await readFile(file, 'utf8')).toBe(foreign)
    })
  })

  it.for([-1, 1.5, Number.NaN])('rejects validLength %s before touching the file', async (validLength) => {
    await expect(repair('/nonexistent', { validLength })).rejects.toThrow(
      /Expected `validLength` to be a non-negative integer/,
    )
  })
})
