import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from './helpers/cli.js'
import { withTempDir } from '../../recorder/test/helpers/records.js'
import { TranscriptBuilder, line } from '../../recorder/test/helpers/recovered-fixtures.js'

const PARTIAL = '{"uuid":"torn","parentUuid":"u1","sessionId":"s1","timest'

describe('the CLI reports torn bytes a `recovered` record names as recovered, not damage', () => {
  it('verify exits 0 and lists them; show and tail mark them; repair leaves the file alone', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      const b = new TranscriptBuilder().add(line('u0', null)).add(line('u1', 'u0'))
      const tornAt = b.offset
      b.crash(`${'\0'.repeat(8)}${PARTIAL}`, 'r1', 'u1').add(line('u2', 'r1'))
      await writeFile(file, b.text)
      const verified = await runCli('verify', file)
      expect(verified.code).toBe(0)
      expect(verified.stdout.split('\n')).toEqual([
        `${file}: 4 record(s), no problems, 1 recovered torn line(s)`,
        `↺ line 3 · recovered · ${8 + PARTIAL.length} torn byte(s) (nul-run, invalid-json) left in place by a crash; the \`recovered\` record "r1" names bytes ${tornAt}–${tornAt + 8 + PARTIAL.length}`,
        '',
      ])
      const json = JSON.parse((await runCli('verify', '--json', file)).stdout) as Record<string, unknown>
      expect(json).toMatchObject({ ok: true, problemCount: 0, recoveredCount: 1 })
      expect((await runCli('show', '--raw', file)).stdout).toContain('↺ line 3 · recovered · ')
      expect((await runCli('tail', file)).stdout).toContain('↺ line 3 · recovered · ')
      const repaired = await runCli('repair', file)
      expect(repaired.code).toBe(0)
      expect(repaired.stdout).toContain('nothing to repair')
      expect(await readFile(file, 'utf8')).toBe(b.text)
    })
  })

  it('a torn line no recovered record names is still a problem: verify exits 1', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      await writeFile(file, `${line('u0', null)}${PARTIAL}\n${line('u1', 'u0')}`)
      const { code, stdout } = await runCli('verify', file)
      expect(code).toBe(1)
      expect(stdout).toContain('⚠ line 2 · invalid-json · ')
    })
  })
})
