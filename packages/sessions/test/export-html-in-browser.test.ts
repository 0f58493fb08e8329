import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { BrowserContext } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Redactor, renderEvents } from '../src/index.js'
import type { ConversationEvent } from '../src/model.js'
import {
  BROWSER_WAIT_MS,
  HAVE_CHROMIUM,
  launch,
  renderAllTurns,
  watchedPage,
  useBrowserTimeouts,
} from './fixtures/browser.js'
import { XSS_PAYLOADS, hostileSession, rewoundAnswer } from './fixtures/hostile-events.js'

// Chromium is a real child process: timeouts raised for this file (a hang detector, see fixtures/browser.ts).
useBrowserTimeouts()

async function html(events: ConversationEvent[], redact = false): Promise<string> {
  let out = ''
  await renderEvents(
    events,
    {
      format: 'html',
      activeOnly: false,
      onBranch: rewoundAnswer,
      ...(redact ? { redactor: new Redactor() } : {}),
    },
    (chunk) => {
      out += chunk
    },
  )
  return out
}

describe('HTML export, the file itself', () => {
  it('is one file with a strict policy: one hashed script, no unsafe-inline, no connection', async () => {
    const page = await html(hostileSession(6).events)
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(page)?.[1] ?? ''
    expect(csp).toMatch(/default-src 'none'/)
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'(;|$)/)
    expect(csp).toMatch(/connect-src 'none'/)
    expect(csp).not.toContain('unsafe')
    // Executable scripts: exactly one (the islands are application/json).
    expect(page.match(/<script>/g)).toHaveLength(1)
    expect(page.match(/<script type="application\/json"/g)).toHaveLength(2)
  })

  it('carries no payload in a form a parser could act on', async () => {
    const page = await html(hostileSession(20).events)
    // Every tag in the file is one of ours: the payloads' '<' are \u003c escapes inside the islands.
    const tags = new Set([...page.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9-]*)/g)].map((m) => m[1]!.toLowerCase()))
    expect([...tags].sort()).toEqual([
      'body',
      'head',
      'html',
      'main',
      'meta',
      'noscript',
      'p',
      'script',
      'style',
      'title',
    ])
    expect(page).not.toContain('<!--')
    expect(XSS_PAYLOADS.length).toBeGreaterThan(10)
    // eslint-disable-next-line no-control-regex
    expect(page).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/)
  })

  it('with redaction holds none of the planted secrets', async () => {
    const { events, secrets } = hostileSession(12)
    const page = await html(events, true)
    for (const secret of secrets) for (const part of secret.split('\n')) expect(page).not.toContain(part)
  })
})

describe.skipIf(!HAVE_CHROMIUM)('HTML export in Chromium', () => {
  let browser: BrowserContext
  let shots: string
  beforeAll(async () => {
    ;({ browser, shots } = await launch())
  })
  afterAll(async () => {
    await browser?.close()
  })

  for (const viewport of [
    { name: 'wide', width: 1280, height: 900 },
    { name: 'phone', width: 390, height: 844 },
  ]) {
    it(`shows every turn of a hostile transcript, runs nothing from it and requests nothing (${viewport.name})`, async () => {
      const { events, turns, secrets } = hostileSession(30)
      const file = join(shots, `hostile-${viewport.name}.html`)
      writeFileSync(file, await html(events, true))
      const url = pathToFileURL(file).href
      const watched = await watchedPage(browser, (u) => u === url, viewport)
      const { page } = watched
      await page.goto(url)
      expect(await renderAllTurns(page)).toBe(turns)
      for (let n = 1; n <= turns; n++) await expect(page.locator(`#t-${n}`).isVisible()).resolves.toBe(true)
      // Open every collapsible, so content inside them is parsed into the page too.
      await page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true })")
      await page.screenshot({ path: join(shots, `hostile-${viewport.name}.png`), fullPage: false })
      const text = await page.locator('main').innerText()
      expect(text).toContain('<script>alert(1)</script>')
      for (const secret of secrets) for (const part of secret.split('\n')) expect(text).not.toContain(part)
      expect(await page.locator('main script, main iframe, main img, main style, main link').count()).toBe(0)
      expect(await page.locator('a[href]:not([href^="https://"]):not([href^="http://"])').count()).toBe(0)
      expect(watched.dialogs).toEqual([])
      expect(watched.errors).toEqual([])
      expect(watched.blocked).toEqual([])
      expect(watched.consoleErrors).toEqual([])
      await watched.page.close()
    })
  }

  it('searches, switches branches, collapses thinking and toggles the theme', async () => {
    const { events } = hostileSession(60)
    const file = join(shots, 'features.html')
    writeFileSync(file, await html(events))
    const url = pathToFileURL(file).href
    const watched = await watchedPage(browser, (u) => u === url)
    const { page } = watched
    await page.goto(url)
    // Lazy: the first paint holds a chunk, not all 60 turns.
    expect(await page.locator('article.turn').count()).toBeLessThan(60)
    await page.fill('input[type=search]', 'Answer 57')
    await page.keyboard.press('Enter')
    await expect.poll(() => page.locator('mark.cur').count(), { timeout: BROWSER_WAIT_MS }).toBe(1)
    expect(await page.locator('#t-58 mark.cur').isVisible()).toBe(true)
    // Thinking is collapsed.
    expect(await page.locator('#t-1 details.thinking').getAttribute('open')).toBeNull()
    // The rewound answer of turn 4 is hidden on the active branch and shown with all branches.
    expect(await page.locator('#t-4 .msg.assistant.off').isVisible()).toBe(false)
    await page.selectOption('select', 'all')
    expect(await page.locator('#t-4 .msg.assistant.off').isVisible()).toBe(true)
    const before = await page.evaluate('document.documentElement.dataset.theme')
    await page.click('button[title="Dark / light"]')
    expect(await page.evaluate('document.documentElement.dataset.theme')).not.toBe(before)
    await page.screenshot({ path: join(shots, 'features-dark.png') })
    expect(watched.errors).toEqual([])
    expect(watched.blocked).toEqual([])
    await watched.page.close()
  })
})
