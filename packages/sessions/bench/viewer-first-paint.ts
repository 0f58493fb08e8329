/**
 * First paint of a 10,000-turn session in Chromium, beside baselines from the same run:
 * - shell: the same page with no turns (what the page costs by itself);
 * - export: the exported HTML file opened from disk (file://);
 * - viewer: `sessiontape view`'s server (the file read, turned into the page, sent over loopback).
 * Reported: first-contentful-paint and when the first turn is in the DOM, both from navigation start, and
 * the page's size. Printed, never asserted.
 *
 * Run: node --conditions=@sessiontape/source --import tsx packages/sessions/bench/viewer-first-paint.ts [turns]
 */
import { mkdtempSync, openSync, writeSync, closeSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { exportSession, startViewer } from '../src/index.js'
import { launch } from '../test/fixtures/browser.js'

const turns = Number(process.argv[2] ?? 10_000)
const dir = mkdtempSync(join(tmpdir(), 'st-paint-bench-'))

function writeSession(file: string, count: number): void {
  const fd = openSync(file, 'w')
  let parent: string | null = null
  for (let turn = 0; turn < count; turn++) {
    const ts = new Date(Date.UTC(2026, 0, 1) + turn * 1000).toISOString()
    const lines: string[] = []
    const rec = (uuid: string, body: Record<string, unknown>): void => {
      lines.push(
        JSON.stringify({
          parentUuid: parent,
          isSidechain: false,
          sessionId: 'paint',
          version: '2.1.0',
          cwd: '/w',
          uuid,
          timestamp: ts,
          ...body,
        }),
      )
      parent = uuid
    }
    rec(`u${turn}`, {
      type: 'user',
      message: { role: 'user', content: `Question ${turn}: why does the reader stop at line ${turn}?` },
    })
    rec(`a${turn}`, {
      type: 'assistant',
      requestId: `r${turn}`,
      message: {
        id: `m${turn}`,
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [
          { type: 'text', text: `Because the line is longer than the bound. `.repeat(4) },
          { type: 'tool_use', id: `t${turn}`, name: 'Read', input: { file_path: `/w/src/file-${turn}.ts` } },
        ],
        usage: { input_tokens: 900 + (turn % 300), output_tokens: 80 + (turn % 40) },
      },
    })
    rec(`r${turn}`, {
      type: 'user',
      message: {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: `t${turn}`, content: 'export const x = 1\n'.repeat(8) },
        ],
      },
    })
    writeSync(fd, lines.join('\n') + '\n')
  }
  closeSync(fd)
}

const session = join(dir, 'session.jsonl')
const empty = join(dir, 'empty.jsonl')
writeSession(session, turns)
writeFileSync(empty, '')
const html = join(dir, 'session.html')
const shell = join(dir, 'shell.html')
await exportSession(session, { format: 'html', out: html })
await exportSession(empty, { format: 'html', out: shell, transcriptFormat: 'claude-code' })

const { browser } = await launch()
async function paint(url: string): Promise<{ fcp: number; firstTurn: number }> {
  const page = await browser.newPage()
  await page.goto(url, { waitUntil: 'load' })
  await page.waitForFunction('document.readyState === "complete"')
  const fcp = await page.evaluate<number>(
    "(performance.getEntriesByName('first-contentful-paint')[0] || { startTime: -1 }).startTime",
  )
  // The page records nothing itself: a turn's existence right after load means it was there at first paint.
  const firstTurn = await page.evaluate<number>(
    "document.querySelector('article.turn') ? performance.now() : -1",
  )
  await page.close()
  return { fcp, firstTurn }
}

const viewer = await startViewer(session, { port: 0 })
const rows: [string, string, number][] = [
  ['shell (no turns, file://)', pathToFileURL(shell).href, statSync(shell).size],
  [`export (${turns} turns, file://)`, pathToFileURL(html).href, statSync(html).size],
  [`viewer (${turns} turns, http)`, viewer.url, statSync(html).size],
]
console.log(`Chromium, ${turns} turns, session file ${(statSync(session).size / 1024 / 1024).toFixed(1)} MB`)
for (const [name, url, size] of rows) {
  // First load warms the browser's caches of the page's code; the second is reported.
  await paint(url)
  const { fcp, firstTurn } = await paint(url)
  console.log(
    `${name.padEnd(34)} first paint ${fcp.toFixed(0).padStart(5)} ms   page ${(size / 1024 / 1024).toFixed(1)} MB   ${firstTurn >= 0 ? `turns shown by ${firstTurn.toFixed(0)} ms` : ''}`,
  )
}
await viewer.close()
await browser.close()
