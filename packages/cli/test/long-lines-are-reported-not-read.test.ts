import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { CLI_MAX_LINE_BYTES } from '../src/limits.js'
import { runCli } from './helpers/cli.js'
import { makeRecord, withTempDir } from '../../recorder/test/helpers/records.js'

const LONG = CLI_MAX_LINE_BYTES + 1024

describe('a line over the CLI limit is reported as too-long and skipped unread, never a crash', () => {
  it('verify, show and tail report it at its line and keep the records around it', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      const a = JSON.stringify(makeRecord(0, null))
      const c = JSON.stringify(makeRecord(1, 'u0'))
      await writeFile(file, `${a}\n${'x'.repeat(LONG)}\n${c}\n`)
      const verified = await runCli('verify', '--json', file)
      expect(verified.code).toBe(1)
      expect(JSON.parse(verified.stdout)).toMatchObject({
        records: 2,
        problems: [{ line: 2, kind: 'too-long' }],
      })
      for (const command of ['show', 'tail']) {
        const { code, stdout, stderr } = await runCli(command, ...(command === 'show' ? ['--raw'] : []), file)
        expect(code, command).toBe(0)
        expect(stderr).toBe('')
        expect(stdout).toContain(`⚠ line 2 · too-long · a line of ${LONG} bytes`)
        expect(stdout).toContain('record 1')
      }
    })
  })

  it('tail reports an over-long unterminated last line as a torn tail', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      await writeFile(file, `${JSON.stringify(makeRecord(0, null))}\n${'x'.repeat(LONG)}`)
      const { code, stdout } = await runCli('tail', file)
      expect(code).toBe(0)
      expect(stdout).toMatch(
        /⚠ line 2 · torn-tail · the last line has no newline \(\d+ byte\(s\), longer than/,
      )
    })
  })
})
