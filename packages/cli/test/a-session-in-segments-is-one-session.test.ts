import { describe, expect, it } from 'vitest'

import { writeSegmentedSession } from '../../recorder/test/helpers/segmented-session.js'
import { withTempDir } from '../../recorder/test/helpers/records.js'
import { runCli } from './helpers/cli.js'

// A session kept in three files (its path and two segments, one carrying a record again): every command
// reads it as one session and shows each record once — asked for by the path or by any segment.

/** How many times `word` stands in `text`. */
const count = (text: string, word: string): number => text.split(word).length - 1

describe('a session in segments, through the CLI', () => {
  it('list: one row for the session, naming its files', async () => {
    await withTempDir(async (dir) => {
      const session = await writeSegmentedSession(dir)
      const { code, stdout } = await runCli('list', dir, '--json')
      expect(code).toBe(0)
      const rows = JSON.parse(stdout) as Array<{ sessionId: string; segments?: string[] }>
      expect(rows.map((row) => [row.sessionId, row.segments])).toEqual([[session.sessionId, session.files]])
    })
  })

  it('show, export (Markdown and HTML) and verify: every record once, from the path or a segment', async () => {
    await withTempDir(async (dir) => {
      const session = await writeSegmentedSession(dir)
      for (const file of [session.files[0]!, session.files[2]!]) {
        const show = await runCli('show', file)
        expect(show.code).toBe(0)
        const markdown = await runCli('export', file, '--format', 'md')
        expect(markdown.code).toBe(0)
        const html = await runCli('export', file, '--format', 'html')
        expect(html.code).toBe(0)
        for (const word of session.words) {
          expect([word, count(show.stdout, word)]).toEqual([word, 1])
          expect([word, count(markdown.stdout, word)]).toEqual([word, 1])
          expect(count(html.stdout, word)).toBeGreaterThanOrEqual(1)
        }
        const verify = await runCli('verify', file, '--json')
        expect(verify.code).toBe(0)
        expect(JSON.parse(verify.stdout)).toMatchObject({ records: session.uuids.length + 2, problems: [] })
      }
    })
  })

  it('usage counts each request once; search finds a word of a later segment in one session', async () => {
    await withTempDir(async (dir) => {
      const session = await writeSegmentedSession(dir)
      // By a file of the session, or by its directory (walked: the segments are not counted again).
      for (const target of [session.files[1]!, dir]) {
        const usage = await runCli('usage', target, '--json')
        expect(usage.code).toBe(0)
        const total = (JSON.parse(usage.stdout) as { totals: { inputTokens: number; outputTokens: number } })
          .totals
        expect([target, total.inputTokens, total.outputTokens]).toEqual([
          target,
          session.usage.inputTokens,
          session.usage.outputTokens,
        ])
      }
      const search = await runCli('search', 'foxtrot', dir, '--json')
      expect(search.code).toBe(0)
      const found = JSON.parse(search.stdout) as { sessions?: unknown[]; hits?: unknown[] }
      expect(JSON.stringify(found).split('foxtrot says assistant').length - 1).toBeGreaterThanOrEqual(1)
      const bravo = JSON.parse((await runCli('search', 'bravo', dir, '--json')).stdout) as unknown
      // Carried into segment 2 and read once there: one hit, not two.
      expect(JSON.stringify(bravo).match(/"uuid":"00000000-0000-4000-8000-000000000002"/g)).toHaveLength(1)
    })
  })

  it('verify names the file a problem is in, and aims repair at it', async () => {
    await withTempDir(async (dir) => {
      const session = await writeSegmentedSession(dir)
      const { appendFile } = await import('node:fs/promises')
      await appendFile(session.files[1]!, 'not json\n')
      const verify = await runCli('verify', session.files[0]!)
      expect(verify.code).toBe(1)
      expect(verify.stdout).toMatch(/⚠ seg-session~2\.jsonl line 5 · invalid-json/)
      expect(verify.stdout).toContain(`sessiontape repair ${session.files[1]}`)
      expect(verify.stdout).not.toContain(`sessiontape repair ${session.files[0]}\n`)
    })
  })
})
