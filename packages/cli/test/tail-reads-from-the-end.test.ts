import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from './helpers/cli.js'
import { makeChain, toJsonl, withTempDir } from '../../recorder/test/helpers/records.js'

describe('tail -n reads from the end of a large file and labels records by byte offset', () => {
  it('prints the last records of a file over 1 MiB, each at its byte offset', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      const records = makeChain(4000).map((r) => ({ ...r, pad: 'x'.repeat(300) }))
      const text = toJsonl(records)
      expect(text.length).toBeGreaterThan(1024 * 1024)
      await writeFile(file, text)
      const lastTwo = text.split('\n').slice(-3, -1)
      const offsetOf = (line: string) => Buffer.byteLength(text.slice(0, text.indexOf(line)))
      const { code, stdout } = await runCli('tail', '-n', '2', file)
      expect(code).toBe(0)
      expect(stdout.split('\n')).toEqual([
        expect.stringMatching(
          new RegExp(`^@${offsetOf(lastTwo[0]!)}: .* message: record 3998 pad: x+`),
        ) as string,
        expect.stringMatching(
          new RegExp(`^@${offsetOf(lastTwo[1]!)}: .* message: record 3999 pad: x+`),
        ) as string,
        '',
      ])
      const json = await runCli('tail', '-n', '2', '--json', file)
      expect(
        json.stdout
          .trim()
          .split('\n')
          .map((l) => (JSON.parse(l) as { uuid: string }).uuid),
      ).toEqual(['u3998', 'u3999'])
    })
  })

  it('reports a torn last line at its byte offset too', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      const text = toJsonl(makeChain(4000).map((r) => ({ ...r, pad: 'x'.repeat(300) })))
      await writeFile(file, `${text}{"uuid":"torn`)
      const { stdout } = await runCli('tail', '-n', '2', file)
      const lines = stdout.trim().split('\n')
      expect(lines.at(-1)).toMatch(new RegExp(`^⚠ byte ${Buffer.byteLength(text)} · torn-tail · `))
      expect(lines.at(-2)).toMatch(/message: record 3999/)
    })
  })
})
