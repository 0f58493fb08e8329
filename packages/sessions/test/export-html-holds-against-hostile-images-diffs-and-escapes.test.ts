import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { BrowserContext } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { renderEvents } from '../src/index.js'
import type { ConversationEvent, EventImage } from '../src/model.js'
import { HAVE_CHROMIUM, launch, renderAllTurns, watchedPage, useBrowserTimeouts } from './fixtures/browser.js'
import { png } from './fixtures/claude-rich-session.js'
import { XSS_PAYLOADS, hostileSession } from './fixtures/hostile-events.js'

// Chromium is a real child process: timeouts raised for this file (a hang detector, see fixtures/browser.ts).
useBrowserTimeouts()

const b64 = (bytes: Buffer | string): string => Buffer.from(bytes).toString('base64')
const PNG = png(8, 8)

/** Images a hostile transcript could carry: only the real rasters may be shown, each from its own bytes. */
const HOSTILE_IMAGES: readonly (EventImage & { readonly shown: boolean })[] = [
  { mediaType: 'image/png', data: b64(PNG), shown: true },
  // Declared as anything, sniffed as PNG: shown as image/png, the declared type never reaches the URI.
  { mediaType: '"><script>alert(1)</script>', data: b64(PNG), shown: true },
  {
    mediaType: 'image/gif',
    data: b64(Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1')),
    shown: true,
  },
  { mediaType: 'image/jpeg', data: b64(Buffer.from([0xff, 0xd8, 0xff, 0xdb, 0, 0])), shown: true },
  {
    mediaType: 'image/webp',
    data: b64(Buffer.concat([Buffer.from('RIFF\x1a\x00\x00\x00WEBPVP8 ', 'latin1'), Buffer.alloc(14)])),
    shown: true,
  },
  {
    mediaType: 'image/svg+xml',
    data: b64('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(2)"/>'),
    shown: false,
  },
  { mediaType: 'image/png', data: b64('<svg><script>alert(3)</script></svg>'), shown: false },
  { mediaType: 'image/png', data: 'iVBORw0KGgo" onerror="alert(4)', shown: false },
  { mediaType: 'image/png', data: `javascript:alert(5)//${b64(PNG)}`, shown: false },
  { mediaType: 'text/html', data: b64('<html><script>alert(6)</script></html>'), shown: false },
  // Over the bound of one image (2 MiB): a placeholder, not megabytes in the page.
  { mediaType: 'image/png', data: b64(Buffer.concat([PNG, Buffer.alloc(3 * 1024 * 1024)])), shown: false },
]

/** The hostile session with images, edits, commands and terminal escapes carrying the payloads too. */
function hostileRichEvents(): ConversationEvent[] {
  const events = [...hostileSession(16).events]
  let n = 0
  const add = (event: Record<string, unknown>): void => {
    n++
    events.push({ id: `x${n}`, line: 1000 + n, raw: {}, ...event } as unknown as ConversationEvent)
  }
  add({ kind: 'user', text: '[image]', images: HOSTILE_IMAGES })
  XSS_PAYLOADS.forEach((payload, i) => {
    add({
      kind: 'tool-call',
      callId: `edit-${i}`,
      name: i % 2 === 0 ? 'Edit' : 'replace',
      input: {
        file_path: `/tmp/${payload}`,
        old_string: `old ${payload}`,
        new_string: `new ${payload}\n${payload}`,
      },
    })
    add({
      kind: 'tool-call',
      callId: `patch-${i}`,
      name: 'apply_patch',
      input: `*** Begin Patch\n*** Update File: ${payload}\n-${payload}\n+${payload}\n*** End Patch`,
    })
    add({
      kind: 'tool-result',
      callId: `edit-${i}`,
      output: `\u001b[1;38;2;300;0;0m${payload}\u001b[0m \u001b]8;;javascript:alert(7)\u001b\\click\u001b]8;;\u001b\\ \u001b[38;5;999mx\u001b[m`,
      isError: false,
      images: [{ mediaType: 'image/svg+xml', data: b64(`<svg onload="${payload}"/>`) }],
    })
    add({
      kind: 'user',
      text: `<command-name>/x ${payload}</command-name><command-args>${payload}</command-args>`,
    })
    add({ kind: 'user', text: `<local-command-stdout>\u001b[31m${payload}\u001b[0m</local-command-stdout>` })
  })
  return events
}

async function page(events: ConversationEvent[]): Promise<string> {
  let out = ''
  await renderEvents(events, { format: 'html', activeOnly: false }, (chunk) => {
    out += chunk
  })
  return out
}

describe('the HTML export of hostile images, edits, commands and escapes', () => {
  it('allows images only as data: URIs in its policy, and only the rasters in its data', async () => {
    const html = await page(hostileRichEvents())
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1] ?? ''
    expect(csp.split('; ').filter((d) => d.startsWith('img-src'))).toEqual(['img-src data:'])
    expect(csp).toMatch(/default-src 'none'/)
    expect(csp).toMatch(/connect-src 'none'/)
    // Every image URI in the data (`src` of an image item), and `data:` nowhere else but the policy and script.
    const uris = [...html.matchAll(/"src":"([^"]*)"/g)].map((m) => m[1]!)
    expect(uris.length).toBe(HOSTILE_IMAGES.filter((i) => i.shown).length)
    for (const uri of uris) expect(uri).toMatch(/^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+=*$/)
    // The 3 MiB image is not in the page.
    expect(html.length).toBeLessThan(1024 * 1024)
  })
})

describe.skipIf(!HAVE_CHROMIUM)('…in Chromium', () => {
  let browser: BrowserContext
  let shots: string
  beforeAll(async () => {
    ;({ browser, shots } = await launch())
  })
  afterAll(async () => {
    await browser?.close()
  })

  it('shows every payload as text, every <img> a raster data: URI, and runs and requests nothing', async () => {
    const file = join(shots, 'hostile-rich.html')
    writeFileSync(file, await page(hostileRichEvents()))
    const url = pathToFileURL(file).href
    const watched = await watchedPage(browser, (u) => u === url)
    const { page: tab } = watched
    await tab.goto(url)
    await renderAllTurns(tab)
    await tab.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true })")
    await tab.screenshot({ path: join(shots, 'hostile-rich.png') })
    const sources = await tab.evaluate<string[]>(
      "[...document.querySelectorAll('img')].map((i) => i.getAttribute('src'))",
    )
    expect(sources.length).toBe(HOSTILE_IMAGES.filter((i) => i.shown).length)
    for (const src of sources) expect(src).toMatch(/^data:image\/(png|jpeg|gif|webp);base64,/)
    // No image element anywhere but ours (an <svg> is the page's own charts only).
    expect(
      await tab.locator('main script, main iframe, main style, main link, main object, main embed').count(),
    ).toBe(0)
    expect(await tab.locator('main svg image, main svg foreignObject, main svg script').count()).toBe(0)
    expect(await tab.locator('a[href]:not([href^="https://"]):not([href^="http://"])').count()).toBe(0)
    // Every style the page set from the data is one of ours: classes from the closed set, colours checked.
    const styled = await tab.evaluate<string[]>(
      "[...document.querySelectorAll('.turns [style]')].map((e) => e.getAttribute('style'))",
    )
    for (const style of styled) expect(style).toMatch(/^((background-)?color: rgb\(\d+, \d+, \d+\);\s*)+$/)
    const text = await tab.locator('main').innerText()
    for (const payload of XSS_PAYLOADS.slice(0, 9)) expect(text).toContain(payload.split('\n')[0]!)
    expect(text).not.toContain('\u001b')
    expect(await tab.locator('.d-del', { hasText: 'old <script>alert(1)</script>' }).count()).toBeGreaterThan(
      0,
    )
    expect(watched.dialogs).toEqual([])
    expect(watched.errors).toEqual([])
    expect(watched.blocked).toEqual([])
    expect(watched.consoleErrors).toEqual([])
    await tab.close()
  })
})
