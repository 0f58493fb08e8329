import { appendFileSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
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
      expect(viewer.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/)
      const page = await fetch(viewer.url)
      expect(page.status).toBe(200)
      expect(page.headers.get('content-security-policy')).toMatch(/connect-src 'self'/)
      expect(await page.text()).toContain('question 1')
      expect((await fetch(viewer.url, { method: 'POST', body: 'x' })).status).toBe(405)
      // fetch() will not send another Host: node:http will, as a DNS-rebinding page's browser would.
      const rebound = await new Promise<number>((resolve, reject) => {
        request(viewer.url, { headers: { host: `evil.example:${viewer.port}` } }, (res) => {
          res.resume()
          resolve(res.statusCode ?? 0)
        })
          .on('error', reject)
          .end()
      })
      expect(rebound).toBe(403)
      expect((await fetch(`${viewer.url}../../etc/passwd`)).status).toBe(404)
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
      const list = await (await fetch(viewer.url)).text()
      const name = readdirSync(dir).find((n) => n.endsWith('.jsonl'))!
      expect(list).toContain(`href="/s/${encodeURIComponent(name)}"`)
      expect(list).not.toContain('notes.txt')
      expect((await fetch(`${viewer.url}s/${encodeURIComponent(name)}`)).status).toBe(200)
      expect((await fetch(`${viewer.url}s/notes.txt`)).status).toBe(404)
      expect((await fetch(`${viewer.url}s/${encodeURIComponent('../' + name)}`)).status).toBe(404)
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
    const origin = viewer.url.slice(0, -1)
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
