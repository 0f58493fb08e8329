/**
 * A long session in the viewer: the page comes with its first screenful only (it paints at once whatever
 * the session's size), the rest arrives over its event stream, and a later append is sent alone (the file
 * is read from where the last read stopped, not again from its start).
 */
import { appendFileSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { startViewer } from '../src/index.js'
import { LiveSession } from '../src/view/live-session.js'
import type { Turn } from '../src/export/turns.js'
import {
  BROWSER_WAIT_MS,
  HAVE_CHROMIUM,
  launch,
  watchedPage,
  useBrowserTimeouts,
} from './fixtures/browser.js'
import { originOf, viewerCookie } from './fixtures/viewer-client.js'
import { claudeTurns } from './fixtures/claude-chain.js'

// Chromium is a real child process: timeouts raised for this file (a hang detector, see fixtures/browser.ts).
useBrowserTimeouts()

const TURNS = 600

describe('a long session in the viewer', () => {
  it('sends the turns after the first screenful over the stream, and then only what was appended', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'st-view-long-'))
    const file = join(dir, 'long.jsonl')
    writeFileSync(file, claudeTurns(TURNS))
    const sent: { from: number; turns: readonly Turn[] }[] = []
    const session = new LiveSession(file, 'auto', {
      turns: (message) => sent.push(message),
      branch: () => {},
      pending: () => {},
      reset: () => {},
      drained: () => undefined,
    })
    await session.update()
    // In messages (the first of 50 turns), in order, every turn once (the last one is still open: it is
    // sent as it stands).
    expect(sent.length).toBeGreaterThan(2)
    expect(sent[0]!.turns.length).toBe(50)
    const all = sent.flatMap((m) => m.turns).map((turn) => turn.n)
    expect(all).toEqual(Array.from({ length: TURNS }, (_, i) => i + 1))
    expect(sent.every((m, i) => i === 0 || m.from === sent[i - 1]!.from + sent[i - 1]!.turns.length)).toBe(
      true,
    )

    sent.length = 0
    appendFileSync(file, claudeTurns(1, TURNS, `a${TURNS - 1}`))
    await session.update()
    // The turn that was open (now complete) and the new one: nothing before them is sent again.
    expect(sent).toHaveLength(1)
    expect(sent[0]!.from).toBe(TURNS - 1)
    expect(sent[0]!.turns.map((turn) => turn.n)).toEqual([TURNS, TURNS + 1])
  })

  it.skipIf(!HAVE_CHROMIUM)(
    'shows the first turns at once and every turn once the stream is read',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'st-view-long-'))
      const file = join(dir, 'long.jsonl')
      writeFileSync(file, claudeTurns(TURNS))
      const viewer = await startViewer(file, { port: 0 })
      const { browser, shots } = await launch()
      try {
        const html = await (
          await fetch(`${originOf(viewer)}/`, { headers: { cookie: await viewerCookie(viewer.url) } })
        ).text()
        expect(html).toContain('Question 0:')
        expect(html).not.toContain(`Question ${TURNS - 1}:`)

        const origin = originOf(viewer)
        const watched = await watchedPage(browser, (u) => u.startsWith(origin))
        const { page } = watched
        await page.goto(viewer.url)
        await page.locator('article.turn').first().waitFor()
        await expect
          .poll(() => page.locator('.facts').textContent(), { timeout: BROWSER_WAIT_MS })
          .toContain(`Turns ${TURNS}`)
        await page.locator('input[type=search]').fill(`Question ${TURNS - 1}:`)
        await page.keyboard.press('Enter')
        await expect
          .poll(() => page.locator('.count').textContent(), { timeout: BROWSER_WAIT_MS })
          .toBe('1/1')
        await expect(page.locator(`#t-${TURNS}`).isVisible()).resolves.toBe(true)
        await page.screenshot({ path: join(shots, 'viewer-long.png') })
        expect(watched.dialogs).toEqual([])
        expect(watched.errors).toEqual([])
        expect(watched.blocked).toEqual([])
      } finally {
        await viewer.close()
        await browser.close()
      }
    },
  )
})
