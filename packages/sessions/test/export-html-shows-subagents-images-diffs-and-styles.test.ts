import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { exportSession } from '../src/index.js'
import {
  BROWSER_WAIT_MS,
  HAVE_CHROMIUM,
  launch,
  renderAllTurns,
  watchedPage,
  useBrowserTimeouts,
} from './fixtures/browser.js'
import { AGENT_ID, UNNAMED_AGENT_ID, writeRichClaudeSession } from './fixtures/claude-rich-session.js'

// Chromium is a real child process: timeouts raised for this file (a hang detector, see fixtures/browser.ts).
useBrowserTimeouts()

/** Every <img> of the page: only data: URIs of the four raster types. */
async function imageSources(page: Page): Promise<string[]> {
  return page.evaluate<string[]>("[...document.querySelectorAll('img')].map((i) => i.getAttribute('src'))")
}
const RASTER_SRC = /^data:image\/(png|jpeg|gif|webp);base64,/

describe('exportSession() of a Claude Code session with subagent files, images and edits', () => {
  it('joins each subagent transcript under the call that spawned it, and the unnamed one too', async () => {
    const { file } = writeRichClaudeSession(mkdtempSync(join(tmpdir(), 'st-rich-')))
    const md = (await exportSession(file, { format: 'md' })).text!
    // Under the Task call, after its result: the subagent's whole conversation, quoted.
    const task = md.indexOf('**Tool call: Task**')
    const found = md.indexOf('> SUBAGENT-FOUND')
    expect(task).toBeGreaterThan(0)
    expect(found).toBeGreaterThan(task)
    expect(md.slice(task, found)).toContain(`> **Subagent ${AGENT_ID}**`)
    expect(md.indexOf('**Tool call: Edit**')).toBeGreaterThan(found)
    expect(md).toContain(`> **Subagent ${UNNAMED_AGENT_ID}**`)
    expect(md).toContain('UNNAMED-SUBAGENT')
    // Claude Code's compaction run is not a subagent's work.
    expect(md).not.toContain('ACOMPACT-COPY')
    expect(md).toContain(
      '```diff\n@@ /home/dev/shop/src/checkout.css\n .pay {\n-  width: 120px;\n+  min-width: 120px;\n+  padding: 0 12px;\n }\n```',
    )
    expect(md).toContain('**Command**: /model opus')
    expect(md).toContain('_Image (image/png, 59 bytes): not shown, not a PNG, JPEG, GIF or WebP image_')
  })

  it('under --redact leaves images out unless keepImages', async () => {
    const { file } = writeRichClaudeSession(mkdtempSync(join(tmpdir(), 'st-rich-')))
    const redacted = (await exportSession(file, { format: 'html', redact: true })).text!
    expect(redacted).not.toContain('data:image/png;base64,')
    expect(redacted).toContain('left out by redaction')
    const kept = (await exportSession(file, { format: 'html', redact: true, keepImages: true })).text!
    expect(kept).toContain('data:image/png;base64,')
  })
})

describe.skipIf(!HAVE_CHROMIUM)('the exported page of that session in Chromium', () => {
  let browser: BrowserContext
  let shots: string
  beforeAll(async () => {
    ;({ browser, shots } = await launch())
  })
  afterAll(async () => {
    await browser?.close()
  })

  it('shows the subagent, the image, the diffs, the styles and the command, and requests nothing', async () => {
    const { file } = writeRichClaudeSession(mkdtempSync(join(tmpdir(), 'st-rich-')))
    const out = join(shots, 'rich.html')
    await exportSession(file, { out })
    const url = pathToFileURL(out).href
    const watched = await watchedPage(browser, (u) => u === url)
    const { page } = watched
    await page.goto(url)
    expect(await renderAllTurns(page)).toBe(3)
    await page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true })")
    await page.screenshot({ path: join(shots, 'rich.png'), fullPage: true })

    // The subagent's items sit inside the Task call's box.
    const task = page.locator('details.tool', { has: page.locator('summary .tn', { hasText: /^Task$/ }) })
    await expect(task.locator('.sub .sub-head').innerText()).resolves.toContain(`Subagent ${AGENT_ID}`)
    await expect(task.locator('.sub').innerText()).resolves.toContain('SUBAGENT-FOUND')
    await expect(page.locator('.sub', { hasText: 'UNNAMED-SUBAGENT' }).count()).resolves.toBe(1)

    // The screenshot is shown from its own bytes; the SVG declared as PNG is not.
    const images = page.locator('.img img')
    await expect(images.count()).resolves.toBe(1)
    await expect
      .poll(() => page.evaluate<number>("document.querySelector('.img img').naturalWidth"), {
        timeout: BROWSER_WAIT_MS,
      })
      .toBe(24)
    await expect(page.locator('.img.omitted').innerText()).resolves.toContain(
      'not a PNG, JPEG, GIF or WebP image',
    )
    for (const src of await imageSources(page)) expect(src).toMatch(RASTER_SRC)

    // The Edit as a diff: removed and added lines, not JSON with \n escapes.
    const edit = page.locator('details.tool', { has: page.locator('summary .tn', { hasText: /^Edit$/ }) })
    await expect(edit.locator('pre.diff .d-del').allInnerTexts()).resolves.toEqual(['-  width: 120px;\n'])
    await expect(edit.locator('pre.diff .d-add').allInnerTexts()).resolves.toEqual([
      '+  min-width: 120px;\n',
      '+  padding: 0 12px;\n',
    ])
    await expect(edit.innerText()).resolves.not.toContain('old_string')
    await expect(
      page.locator('details.tool', { hasText: 'MultiEdit' }).locator('.d-add').count(),
    ).resolves.toBe(2)

    // Terminal colours as styles: no escape shown, PASS bold and green, the hook notice bold.
    const text = await page.locator('main').innerText()
    expect(text).not.toContain('␛')
    expect(text).not.toContain('\u001b')
    const pass = page.locator('span.a', { hasText: 'PASS' })
    await expect(pass.getAttribute('class')).resolves.toBe('a a-b a-f2')
    await expect(
      page.evaluate<string>(
        "getComputedStyle([...document.querySelectorAll('span.a')].find((s) => s.textContent.includes('PASS'))).fontWeight",
      ),
    ).resolves.toBe('700')
    await expect(page.locator('.marker span.a-b', { hasText: 'PostToolUse:Write' }).count()).resolves.toBe(1)

    // The slash command as a command, its output beside it: no tags shown.
    await expect(page.locator('.msg.command code.cmd').innerText()).resolves.toBe('/model opus')
    expect(text).toContain('Set model to opus (claude-opus-4-1)')
    expect(text).not.toMatch(/command-name|local-command-stdout|&lt;/)

    expect(watched.blocked).toEqual([])
    expect(watched.errors).toEqual([])
    expect(watched.consoleErrors).toEqual([])
    await page.close()
  })

  it('filters by kind and goes to a turn from the timeline', async () => {
    const { file } = writeRichClaudeSession(mkdtempSync(join(tmpdir(), 'st-rich-')))
    const out = join(shots, 'rich-filters.html')
    await exportSession(file, { out })
    const url = pathToFileURL(out).href
    const watched = await watchedPage(browser, (u) => u === url, { width: 1000, height: 500 })
    const { page } = watched
    await page.goto(url)
    const tool = page.locator('.turns details.tool').first()
    const thinking = page.locator('.turns details.thinking').first()
    await expect(tool.isVisible()).resolves.toBe(true)
    await page.locator('.filters label', { hasText: 'tool' }).locator('input').uncheck()
    await expect(tool.isVisible()).resolves.toBe(false)
    await expect(thinking.isVisible()).resolves.toBe(true)
    await page.locator('.filters label', { hasText: 'thinking' }).locator('input').uncheck()
    await expect(thinking.isVisible()).resolves.toBe(false)
    await expect(page.locator('.turns article > .msg.assistant').first().isVisible()).resolves.toBe(true)
    await page.locator('.filters label', { hasText: 'tool' }).locator('input').check()
    await expect(tool.isVisible()).resolves.toBe(true)

    // The timeline: a row per kind, a mark per moment; the last user mark takes the reader to turn 3.
    const marks = page.locator('svg.tl rect')
    expect(await marks.count()).toBeGreaterThan(10)
    // Hidden kinds leave the timeline too.
    expect(await page.locator('svg.tl rect.k-thinking').count()).toBe(1)
    await expect(page.locator('svg.tl rect.k-thinking').isVisible()).resolves.toBe(false)
    await page.locator('.filters label', { hasText: 'thinking' }).locator('input').check()
    await expect(page.locator('svg.tl rect.k-thinking').isVisible()).resolves.toBe(true)
    await page.evaluate('window.scrollTo(0, 0)')
    await page.locator('svg.tl rect.k-user[data-n="3"]').last().dispatchEvent('click')
    await expect
      .poll(
        () => page.evaluate<number>("Math.round(document.getElementById('t-3').getBoundingClientRect().top)"),
        {
          timeout: BROWSER_WAIT_MS,
        },
      )
      .toBeLessThan(100)
    expect(watched.blocked).toEqual([])
    expect(watched.errors).toEqual([])
    await page.close()
  })
})
