import { appendFileSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createRecorder, type Recorder } from '@sessiontape/recorder'
import type { BrowserContext } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startViewer, type Viewer } from '../src/index.js'
import {
  BROWSER_WAIT_MS,
  HAVE_CHROMIUM,
  launch,
  watchedPage,
  useBrowserTimeouts,
} from './fixtures/browser.js'
import { XSS_PAYLOADS } from './fixtures/hostile-events.js'
import { originOf, statusOf, viewerCookie } from './fixtures/viewer-client.js'

// Chromium is a real child process: timeouts raised for this file (a hang detector, see fixtures/browser.ts).
useBrowserTimeouts()

/** A session written by a real recorder: user and assistant turns in our own record shapes. */
async function recordedSession(dir: string, turns: number): Promise<Recorder> {
  const recorder = createRecorder({ dir })
  for (let i = 0; i < turns; i++) {
    recorder.record('user', { text: `question ${i} ${XSS_PAYLOADS[i % XSS_PAYLOADS.length]!}` })
    recorder.record('assistant', { text: `answer ${i}` })
  }
  await recorder.flush()
  return recorder
}

describe('the viewer server', () => {
  it('binds 127.0.0.1 only, refuses other Host headers and every method but GET', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'st-view-'))
    const recorder = await recordedSession(dir, 2)
    const viewer = await startViewer(recorder.filePath, { port: 0 })
    try {
      expect(viewer.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{43}$/)
      const origin = originOf(viewer)
      const cookie = await viewerCookie(viewer.url)
      const page = await fetch(`${origin}/`, { headers: { cookie } })
      expect(page.status).toBe(200)
      expect(page.headers.get('content-security-policy')).toMatch(/connect-src 'self'/)
      expect(await page.text()).toContain('question 1')
      expect((await fetch(`${origin}/`, { method: 'POST', body: 'x', headers: { cookie } })).status).toBe(405)
      // fetch() will not send another Host: node:http will, as a DNS-rebinding page's browser would.
      expect(await statusOf(`${origin}/`, { host: `evil.example:${viewer.port}`, cookie })).toBe(403)
      expect((await fetch(`${origin}/../../etc/passwd`, { headers: { cookie } })).status).toBe(404)
    } finally {
      await viewer.close()
      await recorder.close()
    }
  })

  it('lists the sessions of a directory and serves only files it lists', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'st-view-dir-'))
    const first = await recordedSession(dir, 1)
    await first.close()
    writeFileSync(join(dir, 'notes.txt'), 'not a session')
    const viewer = await startViewer(dir, { port: 0 })
    try {
      const origin = originOf(viewer)
      const headers = { cookie: await viewerCookie(viewer.url) }
      const list = await (await fetch(`${origin}/`, { headers })).text()
      const name = readdirSync(dir).find((n) => n.endsWith('.jsonl'))!
      expect(list).toContain(`href="/s/${encodeURIComponent(name)}"`)
      expect(list).not.toContain('notes.txt')
      expect((await fetch(`${origin}/s/${encodeURIComponent(name)}`, { headers })).status).toBe(200)
      expect((await fetch(`${origin}/s/notes.txt`, { headers })).status).toBe(404)
      expect((await fetch(`${origin}/s/${encodeURIComponent('../' + name)}`, { headers })).status).toBe(404)
    } finally {
      await viewer.close()
    }
  })
})

describe.skipIf(!HAVE_CHROMIUM)('the viewer in Chromium', () => {
  let browser: BrowserContext
  let shots: string
  let viewer: Viewer | undefined
  beforeAll(async () => {
    ;({ browser, shots } = await launch())
  })
  afterAll(async () => {
    await viewer?.close()
    await browser?.close()
  })

  it('shows a record a live recorder appends, without a reload, and a torn tail as pending', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'st-view-live-'))
    const recorder = await recordedSession(dir, 3)
    viewer = await startViewer(recorder.filePath, { port: 0 })
    const origin = originOf(viewer)
    const watched = await watchedPage(browser, (u) => u.startsWith(origin))
    const { page } = watched
    await page.goto(viewer.url)
    await expect.poll(() => page.locator('.status').textContent(), { timeout: BROWSER_WAIT_MS }).toBe('live')
    expect(await page.locator('article.turn').count()).toBe(3)

    recorder.record('user', { text: 'appended while the page is open <script>alert(1)</script>' })
    await recorder.flush()
    // The server checks the file every pollMs (250 ms by default, validated in options.ts): that bound is
    // the code's. How soon Chromium shows it on a loaded machine is not, so the wait only catches a hang.
    await page.locator('text=appended while the page is open').waitFor({ timeout: BROWSER_WAIT_MS })
    expect(await page.locator('article.turn').count()).toBe(4)

    // Half a line, as a writer mid-write leaves it: pending, not an error.
    await recorder.close()
    appendFileSync(recorder.filePath, '{"type":"user","uuid":"torn","text":"half')
    await expect.poll(() => page.locator('.pending').isVisible(), { timeout: BROWSER_WAIT_MS }).toBe(true)
    await page.screenshot({ path: join(shots, 'viewer-live.png') })
    expect(await page.locator('footer').textContent()).not.toMatch(/problem/)
    expect(watched.dialogs).toEqual([])
    expect(watched.errors).toEqual([])
    expect(watched.blocked).toEqual([])
    await page.close()
  })
})
