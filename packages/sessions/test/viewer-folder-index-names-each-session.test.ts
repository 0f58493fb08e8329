/**
 * A folder's page in the viewer names each session: its title (a set title first, else its first prompt),
 * its agent (the transcript's format), when it started, when it was last written and its size — every
 * string from a transcript escaped, in a page that runs no script.
 */
import { copyFileSync, mkdirSync, mkdtempSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createRecorder } from '@sessiontape/recorder'
import { describe, expect, it } from 'vitest'
import { startViewer } from '../src/index.js'
import {
  BROWSER_WAIT_MS,
  HAVE_CHROMIUM,
  launch,
  watchedPage,
  useBrowserTimeouts,
} from './fixtures/browser.js'
import { originOf, viewerCookie } from './fixtures/viewer-client.js'

// Chromium is a real child process: timeouts raised for this file (a hang detector, see fixtures/browser.ts).
useBrowserTimeouts()

const CLAUDE = resolve(import.meta.dirname, 'fixtures/claude-code-session.jsonl')
const CODEX = resolve(
  import.meta.dirname,
  '../../recorder/test/fixtures/formats/codex-sessions/2026/05/13/rollout-2026-05-13T11-00-00-0a9b8c7d-6e5f-4a3b-8c2d-1e0f9a8b7c6d.jsonl',
)
const HOSTILE = 'Why <img src=x onerror=alert(1)> \u001b[31mred\u001b[0m?'

async function folder(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'st-view-index-'))
  mkdirSync(join(dir, 'claude'))
  copyFileSync(CLAUDE, join(dir, 'claude', 'session.jsonl'))
  mkdirSync(join(dir, 'codex'))
  copyFileSync(CODEX, join(dir, 'codex', 'rollout.jsonl'))
  const recorder = createRecorder({ dir })
  recorder.record('user', { text: `${HOSTILE}\nsecond line` })
  await recorder.close()
  return dir
}

describe('the folder index', () => {
  it('shows title, agent, start, last write and size per session, escaped', async () => {
    const dir = await folder()
    const viewer = await startViewer(dir, { port: 0 })
    try {
      const response = await fetch(`${originOf(viewer)}/`, {
        headers: { cookie: await viewerCookie(viewer.url) },
      })
      expect(response.headers.get('content-security-policy')).toMatch(
        /^default-src 'none'; style-src 'sha256-/,
      )
      const html = await response.text()
      const items = html.split('<li>').slice(1)
      expect(items).toHaveLength(3)
      const claude = items.find((item) => item.includes('claude/session.jsonl'))!
      expect(claude).toContain('<span class="agent">claude-code</span>')
      expect(claude).toContain('>Fix the login test</a>')
      expect(claude).toContain('started 2026-03-02 09:00:00 UTC')
      expect(claude).toContain(`${(statSync(CLAUDE).size / 1024).toFixed(1)} KiB`)
      const codex = items.find((item) => item.includes('codex/rollout.jsonl'))!
      expect(codex).toContain('<span class="agent">codex-cli</span>')
      const ours = items.find((item) => item.includes('sessiontape'))!
      // Its first prompt's first line, as text: no tag, no escape character.
      expect(ours).toContain('Why &lt;img src=x onerror=alert(1)&gt; ␛[31mred␛[0m?</a>')
      expect(html).not.toContain('<img')
      expect(html).not.toContain('\u001b')
      expect(html).not.toContain('second line')
    } finally {
      await viewer.close()
    }
  })

  it.skipIf(!HAVE_CHROMIUM)('renders in Chromium, and a title opens its session', async () => {
    const dir = await folder()
    const viewer = await startViewer(dir, { port: 0 })
    const { browser, shots } = await launch()
    try {
      const origin = originOf(viewer)
      const watched = await watchedPage(browser, (u) => u.startsWith(origin))
      const { page } = watched
      await page.goto(viewer.url)
      await page.locator('ul.list li').first().waitFor({ timeout: BROWSER_WAIT_MS })
      expect(await page.locator('ul.list li').count()).toBe(3)
      expect(await page.locator('ul.list a', { hasText: HOSTILE.split('\u001b').join('␛') }).count()).toBe(1)
      await page.screenshot({ path: join(shots, 'viewer-index.png') })
      await page.locator('ul.list a', { hasText: 'Fix the login test' }).click()
      await expect
        .poll(() => page.locator('.status').textContent(), { timeout: BROWSER_WAIT_MS })
        .toBe('live')
      expect(await page.locator('h1').textContent()).toBe('Fix the login test')
      expect(watched.dialogs).toEqual([])
      expect(watched.errors).toEqual([])
      expect(watched.blocked).toEqual([])
    } finally {
      await viewer.close()
      await browser.close()
    }
  })
})
