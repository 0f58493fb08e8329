/**
 * The viewer serves sessions that are usually their owner's alone (0600) on a port every local user can
 * reach: every request must carry the secret of this launch, in its URL once, then in a cookie. Another
 * local user (`nobody`, when the tests run as root) gets 401, and cannot read the file a browser is opened on.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { startViewer } from '../src/index.js'
import {
  BROWSER_WAIT_MS,
  HAVE_CHROMIUM,
  launch,
  watchedPage,
  useBrowserTimeouts,
} from './fixtures/browser.js'
import { claudeTurns } from './fixtures/claude-chain.js'
import { originOf, viewerCookie } from './fixtures/viewer-client.js'

// Chromium is a real child process: timeouts raised for this file (a hang detector, see fixtures/browser.ts).
useBrowserTimeouts()

const AS_ROOT = process.getuid?.() === 0
const NOBODY = 65534

/** A private session (0600) in a private folder, served from a file or from its folder. */
function privateSession(): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'st-view-secret-'))
  const file = join(dir, 'session.jsonl')
  writeFileSync(file, claudeTurns(3), { mode: 0o600 })
  return { dir, file }
}

describe('a viewer without its secret', () => {
  it('answers 401 to every path, to a wrong secret and to a wrong cookie', async () => {
    const { dir } = privateSession()
    const viewer = await startViewer(dir, { port: 0 })
    try {
      const origin = originOf(viewer)
      const secret = new URL(viewer.url).searchParams.get('token')!
      expect(Buffer.from(secret, 'base64url')).toHaveLength(32)
      const refused = [
        [`${origin}/`, {}],
        [`${origin}/s/session.jsonl`, {}],
        [`${origin}/s/session.jsonl/events`, {}],
        [`${origin}/?token=${secret.slice(0, -1)}A`, {}],
        [`${origin}/?token=`, {}],
        [`${origin}/`, { cookie: `sessiontape-view-${viewer.port}=${secret.slice(1)}` }],
        // The right secret under another viewer's cookie name.
        [`${origin}/`, { cookie: `sessiontape-view-${viewer.port + 1}=${secret}` }],
      ] as const
      for (const [url, headers] of refused) {
        const response = await fetch(url, { headers, redirect: 'manual' })
        expect([url, response.status]).toEqual([url, 401])
        expect(await response.text()).not.toContain('Question')
      }
    } finally {
      await viewer.close()
    }
  })

  it('gives the secret as an HttpOnly, SameSite=Strict cookie named after its port, and sends the browser to the URL without it', async () => {
    const { file } = privateSession()
    const viewer = await startViewer(file, { port: 0 })
    try {
      const response = await fetch(viewer.url, { redirect: 'manual' })
      expect(response.status).toBe(200)
      expect(await response.text()).toContain('<meta http-equiv="refresh" content="0; url=/">')
      const cookie = response.headers.get('set-cookie')!
      const secret = new URL(viewer.url).searchParams.get('token')!
      expect(cookie.split('; ')).toEqual([
        `sessiontape-view-${viewer.port}=${secret}`,
        'HttpOnly',
        'SameSite=Strict',
        'Path=/',
      ])
      const page = await fetch(`${originOf(viewer)}/`, {
        headers: { cookie: await viewerCookie(viewer.url) },
      })
      expect(page.status).toBe(200)
      expect(await page.text()).toContain('Question 2')
    } finally {
      await viewer.close()
    }
  })

  it.skipIf(!AS_ROOT)(
    'answers 401 to another local user, who cannot read the launch file either',
    async () => {
      const { file } = privateSession()
      const viewer = await startViewer(file, { port: 0 })
      try {
        const launchFile = await viewer.launchFile()
        expect(statSync(launchFile).mode & 0o777).toBe(0o600)
        expect(statSync(dirname(launchFile)).mode & 0o777).toBe(0o700)
        // As `nobody`: a request to the port as it is, and a read of the launch file.
        const probe = `
        const http = require('node:http')
        const fs = require('node:fs')
        let read = 'read'
        try { fs.readFileSync(${JSON.stringify(launchFile)}) } catch (error) { read = error.code }
        http.get('${originOf(viewer)}/', (res) => {
          let body = ''
          res.on('data', (c) => (body += c))
          res.on('end', () => console.log(JSON.stringify({ uid: process.getuid(), status: res.statusCode, body, read })))
        }).on('error', (error) => console.log(JSON.stringify({ error: error.message })))`
        // Asynchronously: this process's event loop serves the viewer the child asks.
        const child = spawn(process.execPath, ['-e', probe], { uid: NOBODY, gid: NOBODY, cwd: '/' })
        let out = ''
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
        await new Promise((resolve) => child.on('close', resolve))
        const result = JSON.parse(out) as { uid: number; status: number; body: string; read: string }
        expect(result.uid).toBe(NOBODY)
        expect(result.status).toBe(401)
        expect(result.body).not.toContain('Question')
        expect(result.read).toBe('EACCES')
      } finally {
        await viewer.close()
      }
    },
  )
})

describe.skipIf(!HAVE_CHROMIUM)('Chromium opened on the launch file', () => {
  it('lands on the session page, live, with the secret out of its address bar', async () => {
    const { file } = privateSession()
    const viewer = await startViewer(file, { port: 0 })
    const { browser } = await launch()
    try {
      const launchFile = await viewer.launchFile()
      const origin = originOf(viewer)
      const watched = await watchedPage(browser, (u) => u.startsWith(origin) || u.startsWith('file://'))
      const { page } = watched
      await page.goto(`file://${launchFile}`)
      await page.waitForURL(`${origin}/`, { timeout: BROWSER_WAIT_MS })
      await expect
        .poll(() => page.locator('.status').textContent(), { timeout: BROWSER_WAIT_MS })
        .toBe('live')
      expect(await page.locator('article.turn').count()).toBe(3)
      // The cookie is the page's key from now on: a reload works, and no script can read it.
      await page.reload()
      await page.locator('article.turn').first().waitFor({ timeout: BROWSER_WAIT_MS })
      expect(await page.evaluate<string>('document.cookie')).toBe('')
      const cookies = await browser.cookies(origin)
      expect(cookies).toEqual([
        expect.objectContaining({
          name: `sessiontape-view-${viewer.port}`,
          httpOnly: true,
          sameSite: 'Strict',
        }),
      ])
      expect(watched.errors).toEqual([])
      expect(watched.blocked).toEqual([])
      await viewer.close()
      // Closed: the launch file is gone with the viewer.
      expect(() => statSync(launchFile)).toThrow(/ENOENT/)
    } finally {
      await viewer.close()
      await browser.close()
    }
  })
})
