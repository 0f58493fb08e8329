/**
 * A session rewound while the viewer follows it: a record appended with an earlier parent makes the turns
 * after that parent a side branch, and the page marks them so (hidden in the active-branch view) without a
 * reload, as an export of the file would.
 */
import { appendFileSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { exportSession, startViewer } from '../src/index.js'
import {
  BROWSER_WAIT_MS,
  HAVE_CHROMIUM,
  launch,
  watchedPage,
  useBrowserTimeouts,
} from './fixtures/browser.js'
import { originOf } from './fixtures/viewer-client.js'
import { claudeLine, claudeTurns } from './fixtures/claude-chain.js'

// Chromium is a real child process: timeouts raised for this file (a hang detector, see fixtures/browser.ts).
useBrowserTimeouts()

describe.skipIf(!HAVE_CHROMIUM)('the viewer following a rewind', () => {
  it('marks the abandoned turns as a side branch within a second or two', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'st-view-rewind-'))
    const file = join(dir, 'session.jsonl')
    writeFileSync(file, claudeTurns(3))
    const viewer = await startViewer(file, { port: 0 })
    const { browser, shots } = await launch()
    try {
      const origin = originOf(viewer)
      const watched = await watchedPage(browser, (u) => u.startsWith(origin))
      const { page } = watched
      await page.goto(viewer.url)
      await expect
        .poll(() => page.locator('.status').textContent(), { timeout: BROWSER_WAIT_MS })
        .toBe('live')
      expect(await page.locator('article.turn.off').count()).toBe(0)

      // Back to after the first answer: turns 2 and 3 are abandoned.
      appendFileSync(
        file,
        claudeLine('u9', 'a0', 'user', 'Question 9: try again') +
          claudeLine('a9', 'u9', 'assistant', 'Again.'),
      )
      await page.locator('text=Question 9: try again').waitFor({ timeout: BROWSER_WAIT_MS })
      await expect.poll(() => page.locator('article.turn.off').count(), { timeout: BROWSER_WAIT_MS }).toBe(2)
      expect(await page.locator('article.turn:not(.off)').allTextContents()).toEqual([
        expect.stringContaining('Question 0'),
        expect.stringContaining('Question 9'),
      ])
      expect(await page.locator('article.turn.off').first().isVisible()).toBe(false)
      // What an export of the same file says.
      const exported = await exportSession(file, { format: 'md', branch: 'all' })
      expect(exported.text!.match(/^## Turn \d+ .*\(side branch\)$/gm)).toHaveLength(2)
      await page.screenshot({ path: join(shots, 'viewer-rewind.png') })
      expect(watched.dialogs).toEqual([])
      expect(watched.errors).toEqual([])
      expect(watched.blocked).toEqual([])
    } finally {
      await viewer.close()
      await browser.close()
    }
  })
})
