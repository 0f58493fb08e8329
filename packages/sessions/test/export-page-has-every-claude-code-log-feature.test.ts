/**
 * A checklist against claude-code-log (the HTML renderer of Claude Code sessions that users compare us
 * with; it cannot be installed here): each feature it documents for a session page — subagent transcripts,
 * images, edit diffs, slash commands, filters by message kind, a timeline — shown by our exported page of a
 * session in Claude Code's own format (subagent files and all), in Chromium. One row per feature; a row
 * fails on its own.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { exportSession } from '../src/index.js'
import {
  HAVE_CHROMIUM,
  launch,
  renderAllTurns,
  watchedPage,
  useBrowserTimeouts,
  type WatchedPage,
} from './fixtures/browser.js'
import { AGENT_ID, writeRichClaudeSession } from './fixtures/claude-rich-session.js'

// Chromium is a real child process: timeouts raised for this file (a hang detector, see fixtures/browser.ts).
useBrowserTimeouts()

interface Feature {
  readonly feature: string
  /** What the page must show for it. */
  readonly check: (page: Page) => Promise<void>
}

const FEATURES: readonly Feature[] = [
  {
    feature: 'subagent transcripts, under the Task call that spawned them',
    check: async (page) => {
      const task = page.locator('details.tool', { has: page.locator('summary .tn', { hasText: /^Task$/ }) })
      expect(await task.locator('.sub .sub-head').innerText()).toContain(AGENT_ID)
      expect(await task.locator('.sub .msg.assistant').innerText()).toContain('SUBAGENT-FOUND')
      expect(await task.locator('.sub details.tool summary .tn').innerText()).toBe('Grep')
    },
  },
  {
    feature: 'images inline',
    check: async (page) => {
      expect(await page.locator('.img img').count()).toBe(1)
      expect(await page.evaluate<number>("document.querySelector('.img img').naturalHeight")).toBe(16)
    },
  },
  {
    feature: 'Edit / MultiEdit / Write as diffs',
    check: async (page) => {
      for (const tool of ['Edit', 'MultiEdit', 'Write']) {
        const box = page.locator('details.tool', {
          has: page.locator('summary .tn', { hasText: new RegExp(`^${tool}$`) }),
        })
        expect(await box.locator('pre.diff .d-add').count(), tool).toBeGreaterThan(0)
      }
    },
  },
  {
    feature: 'slash commands shown as commands, not tags',
    check: async (page) => {
      expect(await page.locator('.msg.command code.cmd').innerText()).toBe('/model opus')
      expect(await page.locator('main').innerText()).not.toMatch(/<\/?command-|local-command-stdout/)
    },
  },
  {
    feature: 'filters by message kind',
    check: async (page) => {
      const labels = await page.locator('.filters label').allInnerTexts()
      expect(labels.map((l) => l.trim())).toEqual(['user', 'assistant', 'thinking', 'tool', 'system'])
      const thinking = page.locator('.turns details.thinking')
      await page.locator('.filters label', { hasText: 'thinking' }).locator('input').uncheck()
      expect(await thinking.isVisible()).toBe(false)
      await page.locator('.filters label', { hasText: 'thinking' }).locator('input').check()
      expect(await thinking.isVisible()).toBe(true)
    },
  },
  {
    feature: 'a timeline of the session',
    check: async (page) => {
      expect(await page.locator('section.timeline svg.tl').isVisible()).toBe(true)
      for (const kind of ['user', 'assistant', 'thinking', 'tool', 'system'])
        expect(await page.locator(`svg.tl rect.k-${kind}`).count(), kind).toBeGreaterThan(0)
    },
  },
]

describe.skipIf(!HAVE_CHROMIUM)('our exported page has every feature claude-code-log documents', () => {
  let browser: BrowserContext
  let watched: WatchedPage
  beforeAll(async () => {
    const launched = await launch()
    browser = launched.browser
    const { file } = writeRichClaudeSession(mkdtempSync(join(tmpdir(), 'st-checklist-')))
    const out = join(launched.shots, 'checklist.html')
    await exportSession(file, { out })
    const url = pathToFileURL(out).href
    watched = await watchedPage(browser, (u) => u === url)
    await watched.page.goto(url)
    await renderAllTurns(watched.page)
    await watched.page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true })")
  })
  afterAll(async () => {
    await browser?.close()
  })

  it.for(FEATURES)('$feature', async ({ check }) => {
    await check(watched.page)
    expect(watched.blocked).toEqual([])
    expect(watched.errors).toEqual([])
  })
})
