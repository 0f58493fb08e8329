import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli, runInProcess } from './helpers/cli.js'
import { writeCorruptTranscript } from '../../recorder/test/helpers/corrupt-transcript.js'
import { withTempDir } from '../../recorder/test/helpers/records.js'
import { writeTranscript } from '../../recorder/test/helpers/sessions.js'

describe('sessiontape verify lists every problem; exit 0 clean, 1 problems, 2 unreadable', () => {
  it('exits 0 on a clean transcript', async () => {
    await withTempDir(async (dir) => {
      await writeTranscript(dir, 's1', 3)
      const file = path.join(dir, 's1.jsonl')
      expect(await runCli('verify', file)).toEqual({
        code: 0,
        stdout: `${file}: 3 record(s), no problems\n`,
        stderr: '',
      })
    })
  })

  it('exits 1 and names each problem with its line on a corrupted transcript', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      await writeCorruptTranscript(file)
      const { code, stdout } = await runCli('verify', file)
      expect(code).toBe(1)
      const lines = stdout.split('\n')
      expect(lines[0]).toBe(`${file}: 7 record(s), 6 problem(s)`)
      expect(
        lines.slice(1, 7).map((l) => /^⚠ line (\d+) · ([a-z-]+) · /.exec(l)?.slice(1, 3).join(' ')),
      ).toEqual(['3 glued', '4 nul-run', '5 glued', '6 orphan', '7 not-an-object', '9 torn-tail'])
      expect(stdout).toContain(`sessiontape repair ${file}`)
    })
  })

  it('prints the same facts as JSON with --json', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      await writeCorruptTranscript(file)
      const { code, stdout } = await runInProcess('verify', '--json', file)
      expect(code).toBe(1)
      const report = JSON.parse(stdout) as {
        filePath: string
        ok: boolean
        records: number
        problems: { kind: string }[]
      }
      expect(report).toMatchObject({ filePath: file, ok: false, records: 7 })
      expect(report.problems.map((p) => p.kind)).toEqual([
        'glued',
        'nul-run',
        'glued',
        'orphan',
        'not-an-object',
        'torn-tail',
      ])
    })
  })

  it('exits 2 when the file cannot be read', async () => {
    await withTempDir(async (dir) => {
      expect((await runCli('verify', '--json', path.join(dir, 'missing.jsonl'))).code).toBe(2)
    })
  })
})
