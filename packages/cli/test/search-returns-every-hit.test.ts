import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCliWith } from './helpers/cli.js'
import { claudeLines, withTemp } from '../../sessions/test/helpers/claude-sessions.js'

const SESSIONS = 300
const PLANTED = 50
const TOKEN = 'zanzibar7q'

/** `SESSIONS` Claude sessions in a few projects; the token in every sixth one's user message (50 of 300). */
async function corpus(root: string): Promise<{ projects: string; planted: string[] }> {
  const projects = path.join(root, 'projects')
  const planted: string[] = []
  for (let n = 0; n < SESSIONS; n++) {
    const id = `${String(n).padStart(8, '0')}-aaaa-4000-8000-000000000000`
    const cwd = `/home/dev/app${n % 7}`
    const dir = path.join(projects, cwd.replace(/[^a-zA-Z0-9]/g, '-'))
    await mkdir(dir, { recursive: true })
    const file = path.join(dir, `${id}.jsonl`)
    const holds = n % (SESSIONS / PLANTED) === 0
    if (holds) planted.push(file)
    const at = new Date(Date.UTC(2026, 2, 1, 0, n)).toISOString()
    await writeFile(
      file,
      claudeLines(id, cwd, [
        {
          user: holds ? `please look at ${TOKEN} again` : `session ${n} about the weather`,
          assistant: 'ok',
          at,
        },
      ]),
    )
  }
  return { projects, planted }
}

function run(cacheDir: string, ...args: string[]) {
  return runCliWith({ env: { SESSIONTAPE_CACHE_DIR: cacheDir, NO_COLOR: '1' } }, ...args)
}

describe('search returns every hit unless --limit asks for fewer, and says when it cut', () => {
  it(`--json returns all ${PLANTED} sessions of a token planted in ${PLANTED} of ${SESSIONS}`, async () => {
    await withTemp(async (root) => {
      const { projects, planted } = await corpus(root)
      const cacheDir = path.join(root, 'cache')
      // Cold (the index is built), then warm (the index rules files out): the same complete answer.
      for (const pass of ['cold', 'warm']) {
        const result = await run(cacheDir, 'search', TOKEN, projects, '--json')
        expect(result.code, pass).toBe(0)
        const json = JSON.parse(result.stdout) as {
          total: number
          truncated: boolean
          unsearched: unknown[]
          hits: { file: string }[]
        }
        expect(json.total, pass).toBe(PLANTED)
        expect(json.truncated, pass).toBe(false)
        expect(json.unsearched, pass).toEqual([])
        expect(new Set(json.hits.map((hit) => hit.file)), pass).toEqual(new Set(planted))
      }

      const text = await run(cacheDir, 'search', TOKEN, projects)
      expect(text.code).toBe(0)
      for (const file of planted) expect(text.stdout).toContain(`↳ ${file}\n`)
      expect(text.stdout).toContain(`${PLANTED} hit(s) in ${PLANTED} session(s) (${SESSIONS} searched)\n`)
    })
  })

  it('--limit cuts only when given, and says so: truncated, the total, "n of m shown"', async () => {
    await withTemp(async (root) => {
      const { projects } = await corpus(root)
      const cacheDir = path.join(root, 'cache')
      const limited = await run(cacheDir, 'search', TOKEN, projects, '--json', '--limit', '10')
      expect(limited.code).toBe(0)
      const json = JSON.parse(limited.stdout) as { total: number; truncated: boolean; hits: unknown[] }
      expect(json.hits).toHaveLength(10)
      expect(json.total).toBe(PLANTED)
      expect(json.truncated).toBe(true)
      const text = await run(cacheDir, 'search', TOKEN, projects, '--limit', '10')
      expect(text.stdout).toContain(`10 of ${PLANTED} hit(s) shown (--limit) in 10 session(s)`)
      // A limit the hits fit in cuts nothing.
      const roomy = await run(cacheDir, 'search', TOKEN, projects, '--json', '--limit', String(PLANTED))
      expect(JSON.parse(roomy.stdout)).toMatchObject({ total: PLANTED, truncated: false })
    })
  })
})
