/**
 * First paint of a 10,000-turn session in Chromium, beside baselines from the same run:
 * - shell: the same page with no turns (what the page costs by itself);
 * - export: the exported HTML file opened from disk (file://);
 * - viewer: `sessiontape view <file>` in its own process, as a user runs it (the page and its event stream
 *   over loopback).
 * Reported, from navigation start and as the page itself timed them (an observer the bench adds before the
 * page's script runs): first-contentful-paint, when the first turn was in the DOM, and when the page knew
 * every turn (its header counts them: a live page's stream brings those after the first screen); and the
 * page's size. Printed, never asserted.
 *
 * Run: node --conditions=@sessiontape/source --import tsx packages/sessions/bench/viewer-first-paint.ts [turns]
 */
import { mkdtempSync, openSync, writeSync, closeSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { spawn, type ChildProcess } from 'node:child_process'
import { exportSession } from '../src/index.js'
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
/** Records, in the page, when the first turn appears and when the header counts every turn. */
const OBSERVER = `(() => {
  const all = 'Turns ' + new Intl.NumberFormat('en-US').format(${turns});
  const check = () => {
    if (window.__firstTurn === undefined && document.querySelector('article.turn')) window.__firstTurn = performance.now();
    const facts = document.querySelector('.facts');
    if (window.__allTurns === undefined && facts && facts.textContent.includes(all)) window.__allTurns = performance.now();
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true });
})()`

async function paint(url: string): Promise<{ fcp: number; firstTurn: number; allTurns: number }> {
  const page = await browser.newPage()
  await page.addInitScript({ content: OBSERVER })
  await page.goto(url, { waitUntil: 'load' })
  const probe =
    "[(performance.getEntriesByName('first-contentful-paint')[0] || { startTime: -1 }).startTime, window.__firstTurn ?? -1, window.__allTurns ?? -1]"
  let seen = [-1, -1, -1]
  // Polled from here (the page's policy forbids waitForFunction's evaluated strings); a page with no turns
  // never gets there and is given a second.
  const deadline = Date.now() + (url === shellUrl ? 1000 : 60_000)
  while (seen[2]! < 0 && Date.now() < deadline) {
    seen = await page.evaluate<number[]>(probe)
    if (seen[2]! < 0) await new Promise((resolve) => setTimeout(resolve, 20))
  }
  await page.close()
  return { fcp: seen[0]!, firstTurn: seen[1]!, allTurns: seen[2]! }
}

/** `sessiontape view` in a child process; resolves with its URL (the first line it prints). */
function startCliViewer(file: string): Promise<{ url: string; child: ChildProcess }> {
  const cli = join(dirname(fileURLToPath(import.meta.url)), '../../cli')
  const child = spawn(
    process.execPath,
    [
      '--conditions=@sessiontape/source',
      '--import',
      'tsx',
      'src/main.ts',
      'view',
      file,
      '--no-open',
      '--port',
      '0',
    ],
    { cwd: cli, stdio: ['ignore', 'pipe', 'inherit'] },
  )
  return new Promise((resolve, reject) => {
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const newline = out.indexOf('\n')
      if (newline !== -1) resolve({ url: out.slice(0, newline).trim(), child })
    })
    child.once('exit', (code) =>
      reject(new Error(`sessiontape view exited (${code}) before printing its URL`)),
    )
  })
}

const shellUrl = pathToFileURL(shell).href
const viewer = await startCliViewer(session)
const rows: [string, string, number][] = [
  ['shell (no turns, file://)', shellUrl, statSync(shell).size],
  [`export (${turns} turns, file://)`, pathToFileURL(html).href, statSync(html).size],
  [`viewer (${turns} turns, http)`, viewer.url, (await (await fetch(viewer.url)).text()).length],
]
console.log(
  `Chromium, ${turns} turns, session file ${(statSync(session).size / 1024 / 1024).toFixed(1)} MB, load average ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}`,
)
for (const [name, url, size] of rows) {
  // First load warms the browser's caches of the page's code; the second is reported.
  await paint(url)
  const { fcp, firstTurn, allTurns } = await paint(url)
  console.log(
    `${name.padEnd(34)} first paint ${fcp.toFixed(0).padStart(5)} ms   page ${(size / 1024 / 1024).toFixed(1)} MB   ${firstTurn >= 0 ? `first turn shown at ${firstTurn.toFixed(0)} ms` : ''}   ${allTurns >= 0 ? `all ${turns} turns by ${allTurns.toFixed(0)} ms` : ''}`,
  )
}
viewer.child.kill()
await browser.close()
rmSync(dir, { recursive: true, force: true })
