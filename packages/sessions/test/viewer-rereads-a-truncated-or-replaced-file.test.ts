/**
 * A followed file that is cut shorter, renamed over or rewritten in place: the viewer notices (inode, size
 * against where it had read to, first bytes), tells the page (`reset`) and reads the file from its start.
 * The page never shows one file's turns followed by another's.
 */
import { appendFileSync, mkdtempSync, renameSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { startViewer } from '../src/index.js'
import type { Turn } from '../src/export/turns.js'
import { FollowedFile } from '../src/view/followed-file.js'
import { LiveSession } from '../src/view/live-session.js'
import {
  BROWSER_WAIT_MS,
  HAVE_CHROMIUM,
  launch,
  watchedPage,
  useBrowserTimeouts,
} from './fixtures/browser.js'
import { claudeLine } from './fixtures/claude-chain.js'

// Chromium is a real child process: timeouts raised for this file (a hang detector, see fixtures/browser.ts).
useBrowserTimeouts()

/** `turns` question/answer turns whose text names the session (`alpha 3`, `bravo 7`). */
function session(name: string, turns: number): string {
  let out = ''
  let parent: string | null = null
  for (let i = 0; i < turns; i++) {
    out += claudeLine(`${name}-u${i}`, parent, 'user', `${name} question ${i}`)
    out += claudeLine(`${name}-a${i}`, `${name}-u${i}`, 'assistant', `${name} answer ${i}`)
    parent = `${name}-a${i}`
  }
  return out
}

type Message = { kind: 'reset'; reason: string } | { kind: 'turns'; from: number; turns: readonly Turn[] }

function follow(file: string, pageTag?: string): { session: LiveSession; messages: Message[] } {
  const messages: Message[] = []
  const live = new LiveSession(
    file,
    'auto',
    {
      turns: (message) => messages.push({ kind: 'turns', from: message.from, turns: message.turns }),
      branch: () => {},
      pending: () => {},
      reset: (message) => messages.push({ kind: 'reset', reason: message.reason }),
      drained: () => undefined,
    },
    pageTag,
  )
  return { session: live, messages }
}

/** The texts of the turns the messages carry, in order. */
function texts(messages: readonly Message[]): string[] {
  const out: string[] = []
  for (const m of messages) {
    if (m.kind !== 'turns') continue
    for (const turn of m.turns)
      for (const item of turn.items as readonly { text?: string }[]) out.push(item.text ?? '')
  }
  return out
}

describe('a followed file that changes under the viewer', () => {
  for (const [change, act] of [
    [
      'replaced',
      (file: string, dir: string) => {
        // A longer file renamed over the path: read from the old offset, its tail would pass for ours.
        writeFileSync(join(dir, 'other.jsonl'), session('bravo', 8))
        renameSync(join(dir, 'other.jsonl'), file)
      },
    ],
    [
      'rewritten',
      (file: string) => {
        // Rewritten in place, longer than before (the same inode): only its first bytes tell.
        writeFileSync(file, session('bravo', 8))
      },
    ],
  ] as const) {
    it(`${change}: reset, then the new file's turns from index 0 and none of them before the reset`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'st-view-change-'))
      const file = join(dir, 'session.jsonl')
      writeFileSync(file, session('alpha', 3))
      const { session: live, messages } = follow(file)
      await live.update()
      expect(texts(messages).some((t) => t.startsWith('alpha'))).toBe(true)
      messages.length = 0
      act(file, dir)
      await live.update()
      expect(messages[0]).toEqual({ kind: 'reset', reason: change })
      const after = messages.slice(1)
      expect(after[0]).toMatchObject({ kind: 'turns', from: 0 })
      expect(texts(after).filter((t) => t.startsWith('alpha'))).toEqual([])
      expect(texts(after).filter((t) => t.startsWith('bravo'))).toHaveLength(16)
      await live.close()
    })
  }

  it('truncated: reset, then what the file holds from its start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'st-view-change-'))
    const file = join(dir, 'session.jsonl')
    const two = session('alpha', 2)
    writeFileSync(file, two + session('alpha', 5).slice(two.length))
    const { session: live, messages } = follow(file)
    await live.update()
    messages.length = 0
    truncateSync(file, Buffer.byteLength(two))
    await live.update()
    expect(messages[0]).toEqual({ kind: 'reset', reason: 'truncated' })
    expect(texts(messages.slice(1))).toEqual([
      'alpha question 0',
      'alpha answer 0',
      'alpha question 1',
      'alpha answer 1',
    ])
    await live.close()
  })

  it('appended to: no reset, only the new turns', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'st-view-change-'))
    const file = join(dir, 'session.jsonl')
    writeFileSync(file, session('alpha', 2))
    const { session: live, messages } = follow(file)
    await live.update()
    messages.length = 0
    appendFileSync(file, claudeLine('alpha-u2', 'alpha-a1', 'user', 'alpha question 2'))
    await live.update()
    expect(messages.some((m) => m.kind === 'reset')).toBe(false)
    // The turn that was open (the last question and its answer) again, then the new one.
    expect(messages[0]).toMatchObject({ kind: 'turns', from: 1 })
    expect(texts(messages)).toEqual(['alpha question 1', 'alpha answer 1', 'alpha question 2'])
    await live.close()
  })
})

describe('a page and its stream', () => {
  /** The tag a page gets for the file as it is now. */
  async function tagOf(file: string): Promise<string> {
    const held = await FollowedFile.open(file)
    try {
      return held.tag
    } finally {
      await held.close()
    }
  }

  it('a file that only grew between the page and its stream: no reset', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'st-view-tag-'))
    const file = join(dir, 'session.jsonl')
    // Shorter than the 4 KiB compared: the page's tag covers fewer bytes than the stream then reads.
    writeFileSync(file, session('alpha', 1))
    const tag = await tagOf(file)
    appendFileSync(file, session('alpha', 30).slice(session('alpha', 1).length))
    const { session: live, messages } = follow(file, tag)
    await live.update()
    expect(messages.some((m) => m.kind === 'reset')).toBe(false)
    await live.close()
  })

  it('a file replaced between the page and its stream: reset before any turn', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'st-view-tag-'))
    const file = join(dir, 'session.jsonl')
    writeFileSync(file, session('alpha', 3))
    const tag = await tagOf(file)
    writeFileSync(join(dir, 'other.jsonl'), session('alpha', 3))
    renameSync(join(dir, 'other.jsonl'), file)
    const { session: live, messages } = follow(file, tag)
    await live.update()
    expect(messages[0]).toEqual({ kind: 'reset', reason: 'replaced' })
    await live.close()
  })
})

describe.skipIf(!HAVE_CHROMIUM)('the page of a file renamed over or cut shorter', () => {
  it('shows the new file from its start, says so, and never shows both files at once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'st-view-change-'))
    const file = join(dir, 'session.jsonl')
    writeFileSync(file, session('alpha', 3))
    const viewer = await startViewer(file, { port: 0 })
    const { browser, shots } = await launch()
    try {
      const origin = `http://127.0.0.1:${viewer.port}`
      const watched = await watchedPage(browser, (u) => u.startsWith(origin))
      const { page } = watched
      // Records, at every change of the page's turns, whether turns of both files were shown together.
      await page.addInitScript({
        content: `window.__mixed = 0;
          new MutationObserver(function () {
            var text = Array.from(document.querySelectorAll('article.turn')).map(function (a) { return a.textContent; }).join('\\n');
            if (text.indexOf('alpha') >= 0 && text.indexOf('bravo') >= 0) window.__mixed++;
          }).observe(document, { childList: true, subtree: true, characterData: true });`,
      })
      await page.goto(viewer.url)
      await expect
        .poll(() => page.locator('.status').textContent(), { timeout: BROWSER_WAIT_MS })
        .toBe('live')
      await page.locator('text=alpha answer 2').waitFor({ timeout: BROWSER_WAIT_MS })

      writeFileSync(join(dir, 'other.jsonl'), session('bravo', 6))
      renameSync(join(dir, 'other.jsonl'), file)
      await page.locator('text=bravo answer 5').waitFor({ timeout: BROWSER_WAIT_MS })
      expect(await page.locator('article.turn').count()).toBe(6)
      expect(await page.locator('article.turn', { hasText: 'alpha' }).count()).toBe(0)
      expect(await page.locator('.notice').textContent()).toMatch(/Another file was put in its place/)

      // Cut back to its first two turns: the page shows those two, nothing after them.
      truncateSync(file, Buffer.byteLength(session('bravo', 2)))
      await expect.poll(() => page.locator('article.turn').count(), { timeout: BROWSER_WAIT_MS }).toBe(2)
      expect(await page.locator('article.turn').last().textContent()).toMatch(/bravo answer 1/)
      expect(await page.locator('.notice').textContent()).toMatch(/cut shorter/)
      expect(await page.evaluate<number>('window.__mixed')).toBe(0)
      await page.screenshot({ path: join(shots, 'viewer-replaced.png') })
      expect(watched.errors).toEqual([])
      expect(watched.blocked).toEqual([])
    } finally {
      await viewer.close()
      await browser.close()
    }
  })
})
