/**
 * Pages that connect and never read their event stream (a stuck tab, a hostile local client) must not make
 * the viewer hold the session for each of them: 80 of them on a 41 MB session, and the viewer process's
 * peak resident memory (VmHWM, read from /proc) stays at most 400 MB. A page that does read is still served.
 */
import { appendFileSync, existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished, vi } from 'vitest'
import { claudeLine } from '../../sessions/test/fixtures/claude-chain.js'
import { startCli } from './helpers/cli.js'

// Generating 41 MB, then 80 clients against a child process on a shared 2-core machine: a hang detector only.
vi.setConfig({ testTimeout: 300_000 })

const CLIENTS = 80
const SESSION_BYTES = 41 * 1000 * 1000
const LIMIT_BYTES = 400 * 1000 * 1000

/** A Claude Code session of about `bytes`, question and answer turns of ~4 KB each. */
function bigSession(file: string, bytes: number): void {
  const filler = 'lorem ipsum dolor sit amet '.repeat(75)
  let written = 0
  let parent: string | null = null
  for (let i = 0; written < bytes;) {
    let chunk = ''
    for (const end = i + 500; i < end; i++) {
      chunk += claudeLine(`u${i}`, parent, 'user', `Question ${i}: ${filler}`)
      chunk += claudeLine(`a${i}`, `u${i}`, 'assistant', `Answer ${i}: ${filler}`)
      parent = `a${i}`
    }
    appendFileSync(file, chunk)
    written += Buffer.byteLength(chunk)
  }
}

/** A line of /proc/<pid>/status in bytes (`VmRSS`, `VmHWM`). */
function memoryOf(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`))!
  return Number(/(\d+)\s*kB/.exec(line)![1]) * 1024
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

describe.skipIf(!existsSync('/proc/self/status'))('view with clients that never read', () => {
  it(`keeps the viewer under 400 MB with ${CLIENTS} of them on a 41 MB session, and still serves a page that reads`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'st-cli-view-memory-'))
    const file = join(dir, 'big.jsonl')
    bigSession(file, SESSION_BYTES)
    expect(statSync(file).size).toBeGreaterThanOrEqual(SESSION_BYTES)

    const child = startCli('view', '--no-open', file)
    const sockets: Socket[] = []
    onTestFinished(() => {
      for (const socket of sockets) socket.destroy()
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    })
    let stdout = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    const url = await new Promise<string>((resolve) => {
      const check = (): void =>
        stdout.includes('\n') ? resolve(stdout.split('\n')[0]!) : void setTimeout(check, 20)
      check()
    })
    const { port } = new URL(url)
    const granted = await fetch(url, { redirect: 'manual' })
    const cookie = granted.headers.get('set-cookie')!.split(';')[0]!
    const before = memoryOf(child.pid!, 'VmRSS')

    // One after another, as tabs and stuck clients come, each asking for the whole session and reading none.
    for (let i = 0; i < CLIENTS; i++) {
      const socket = connect(Number(port), '127.0.0.1')
      sockets.push(socket)
      socket.on('error', () => {
        // Dropped by the viewer: that is what it does to a client that does not read.
      })
      socket.pause()
      socket.write(`GET /events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nCookie: ${cookie}\r\n\r\n`)
      await sleep(100)
    }
    // Until the viewer's memory stops growing (the readers wait for pages that never read).
    let last = 0
    for (let stable = 0; stable < 8;) {
      await sleep(250)
      const now = memoryOf(child.pid!, 'VmRSS')
      stable = Math.abs(now - last) < 4 * 1024 * 1024 ? stable + 1 : 0
      last = now
    }
    const peak = memoryOf(child.pid!, 'VmHWM')
    console.log(
      `view, ${CLIENTS} clients that never read, ${(statSync(file).size / 1e6).toFixed(1)} MB session: RSS ${(before / 1e6).toFixed(0)} MB before, ${(last / 1e6).toFixed(0)} MB after, peak ${(peak / 1e6).toFixed(0)} MB`,
    )
    expect(peak).toBeLessThanOrEqual(LIMIT_BYTES)

    // A page that reads gets its stream once a stalled one can give way (while all 16 places are taken by
    // streams still being read, a new page is refused with 503, and reloading is what its page says to do).
    const controller = new AbortController()
    onTestFinished(() => controller.abort())
    let response = await fetch(new URL('/events', url), { headers: { cookie }, signal: controller.signal })
    for (let tries = 0; response.status === 503 && tries < 240; tries++) {
      await response.body?.cancel()
      await sleep(500)
      response = await fetch(new URL('/events', url), { headers: { cookie }, signal: controller.signal })
    }
    expect(response.status).toBe(200)
    let text = ''
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      text += Buffer.from(chunk).toString()
      if (text.includes('Question 0:')) break
    }
    expect(text).toMatch(/^event: turns\n/m)
    expect(text).toContain('Question 0:')
  })
})
