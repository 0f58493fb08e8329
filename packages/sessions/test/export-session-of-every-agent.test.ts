import { mkdtempSync, readFileSync, writeFileSync, copyFileSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { BrowserContext } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { exportSession } from '../src/index.js'
import { HAVE_CHROMIUM, launch, renderAllTurns, watchedPage, useBrowserTimeouts } from './fixtures/browser.js'
import { samplesOf } from './helpers/samples.js'

// Chromium is a real child process: timeouts raised for this file (a hang detector, see fixtures/browser.ts).
useBrowserTimeouts()

const FIXTURES = join(import.meta.dirname, 'fixtures')
const OWN = ['claude-code-session.jsonl', 'gemini-cli-session.jsonl', 'qwen-code-session.jsonl'].map((f) =>
  join(FIXTURES, f),
)
const SAMPLES = [
  ...samplesOf('claude-code'),
  ...samplesOf('gemini-cli'),
  ...samplesOf('qwen-code'),
  ...samplesOf('codex-cli'),
]

describe('exportSession()', () => {
  it.for(OWN)('exports %s as Markdown and HTML with every turn', async (file) => {
    const md = await exportSession(file, { format: 'md' })
    const html = await exportSession(file, { format: 'html', branch: 'all' })
    expect(md.turns).toBeGreaterThan(0)
    expect(md.text!.match(/^## Turn \d+/gm)).toHaveLength(md.turns)
    expect(html.text!.startsWith('<!doctype html>')).toBe(true)
    expect(html.turns).toBeGreaterThanOrEqual(md.turns)
  })

  it.skipIf(SAMPLES.length === 0).for(SAMPLES)(
    'exports the shared sample %s without failing',
    async (file) => {
      const result = await exportSession(file, { format: 'html', branch: 'all', redact: true })
      expect(result.text!.endsWith('</html>\n')).toBe(true)
    },
  )

  it('writes --out through a temporary file, and never onto the transcript or a non-file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'st-export-out-'))
    const transcript = join(dir, 'session.jsonl')
    copyFileSync(OWN[0]!, transcript)
    const before = readFileSync(transcript)
    const out = join(dir, 'session.html')
    writeFileSync(out, 'an older export')
    const result = await exportSession(transcript, { out })
    expect(result.text).toBeUndefined()
    expect(readFileSync(out, 'utf8')).toMatch(/^<!doctype html>[\s\S]*<\/html>\n$/)
    await expect(exportSession(transcript, { out: transcript })).rejects.toMatchObject({
      code: 'ERR_EXPORT_OUT',
    })
    mkdirSync(join(dir, 'a-dir'))
    await expect(exportSession(transcript, { out: join(dir, 'a-dir') })).rejects.toMatchObject({
      code: 'ERR_EXPORT_OUT',
    })
    expect(readFileSync(transcript)).toEqual(before)
  })

  it('streams through write() and checks its options at the call', async () => {
    const chunks: string[] = []
    await exportSession(OWN[0]!, { format: 'md', write: (chunk) => void chunks.push(chunk) })
    expect(chunks.length).toBeGreaterThan(1)
    await expect(exportSession(OWN[0]!, { format: 'pdf' as never })).rejects.toThrow(
      /Expected `format` to be 'html' or 'md'/,
    )
    await expect(exportSession(OWN[0]!, { colour: true } as never)).rejects.toThrow(/Unknown option `colour`/)
  })
})

describe.skipIf(!HAVE_CHROMIUM)("other agents' sessions in Chromium", () => {
  let browser: BrowserContext
  let shots: string
  beforeAll(async () => {
    ;({ browser, shots } = await launch())
  })
  afterAll(async () => {
    await browser?.close()
  })

  it.for([
    ...OWN,
    ...SAMPLES.filter((f) => /dag_compact|session-2026|qwen-code-session|standard_session/.test(f)),
  ])('shows every turn of %s, runs nothing and requests nothing', async (file) => {
    const result = await exportSession(file, { format: 'html', branch: 'all' })
    const page = join(shots, `${basename(file)}.html`)
    writeFileSync(page, result.text!)
    const url = pathToFileURL(page).href
    const watched = await watchedPage(browser, (u) => u === url)
    await watched.page.goto(url)
    expect(await renderAllTurns(watched.page)).toBe(result.turns)
    await watched.page.screenshot({ path: `${page}.png`, fullPage: true })
    expect(watched.errors).toEqual([])
    expect(watched.dialogs).toEqual([])
    expect(watched.blocked).toEqual([])
    await watched.page.close()
  })
})
