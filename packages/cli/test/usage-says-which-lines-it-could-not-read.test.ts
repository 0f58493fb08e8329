import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runInProcess } from './helpers/cli.js'
import { withTempDir } from '../../recorder/test/helpers/records.js'

function claudeLine(n: number, output: number): string {
  return JSON.stringify({
    parentUuid: null,
    sessionId: 's',
    type: 'assistant',
    uuid: `a${n}`,
    timestamp: `2026-02-10T10:00:0${n}.000Z`,
    requestId: `r${n}`,
    message: {
      id: `m${n}`,
      role: 'assistant',
      model: 'claude-x',
      content: [{ type: 'text', text: 'hi' }],
      usage: { input_tokens: 10, output_tokens: output },
    },
  })
}

describe('`usage` says which files had lines it could not read, whose usage is not in the totals', () => {
  it('a garbled line and a torn last line: named on stderr and in --json, the rest counted, exit 0', async () => {
    await withTempDir(async (dir) => {
      const damaged = path.join(dir, 'damaged.jsonl')
      const clean = path.join(dir, 'clean.jsonl')
      const whole = claudeLine(3, 3)
      await writeFile(
        damaged,
        `${claudeLine(1, 1)}\n{"garbled": \n${claudeLine(2, 2)}\n${whole.slice(0, whole.length / 2)}`,
      )
      await writeFile(clean, `${claudeLine(4, 4)}\n`)
      const table = await runInProcess('usage', damaged, clean)
      expect(table.code).toBe(0)
      expect(table.stderr).toBe(
        `sessiontape usage: 2 lines of ${damaged} could not be read (damaged, cut off or over 16 MiB); ` +
          'any usage on them is not counted. `sessiontape verify` lists them.\n',
      )
      expect(table.stdout).toMatch(/^total\s+30\s+0\s+0\s+7\s+0\s+37\s+unknown$/m)
      const json = await runInProcess('usage', damaged, clean, '--json')
      expect(JSON.parse(json.stdout)).toMatchObject({ linesNotRead: [{ file: damaged, lines: 2 }] })
      expect(json.stderr).toBe('')
    })
  })

  it('a file whose only usage line is over the line bound still gets its note (it has no row)', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 'long.jsonl')
      await writeFile(
        file,
        `${claudeLine(1, 1).replace('"hi"', JSON.stringify('x'.repeat(17 * 1024 * 1024)))}\n`,
      )
      const result = await runInProcess('usage', file)
      expect(result.stdout).toContain('1 file read, 0 with usage')
      expect(result.stderr).toContain(`1 line of ${file} could not be read`)
    })
  })
})
