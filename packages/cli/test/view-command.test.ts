import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createRecorder } from '@sessiontape/recorder'
import { describe, expect, it, onTestFinished } from 'vitest'
import { startCli } from './helpers/cli.js'

/** Reads an SSE response until `predicate` holds for what arrived (bounded by `ms`). */
async function readStreamUntil(
  url: string,
  cookie: string,
  predicate: (text: string) => boolean,
  ms: number,
): Promise<string> {
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), ms)
  let text = ''
  try {
    const response = await fetch(url, { signal: controller.signal, headers: { cookie } })
    const decoder = new TextDecoder()
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      text += decoder.decode(chunk, { stream: true })
      if (predicate(text)) return text
    }
  } catch {
    // Aborted at the bound: the caller checks what arrived.
  } finally {
    clearTimeout(timer)
    controller.abort()
  }
  return text
}

describe('sessiontape view', () => {
  it('prints its 127.0.0.1 URL first, serves the session, streams an appended record, ends on SIGINT', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'st-cli-view-'))
    const recorder = createRecorder({ dir })
    recorder.record('user', { text: 'first question' })
    await recorder.flush()
    const child = startCli('view', '--port', '0', '--no-open', recorder.filePath)
    onTestFinished(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    })
    let stdout = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    const url = await new Promise<string>((resolve) => {
      const check = (): void =>
        stdout.includes('\n') ? resolve(stdout.split('\n')[0]!) : void setTimeout(check, 20)
      check()
    })
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{43}$/)
    // The URL's secret buys a cookie (and a page that sends the browser to the URL without it); the cookie
    // opens the rest.
    const granted = await fetch(url, { redirect: 'manual' })
    expect(granted.status).toBe(200)
    const cookie = granted.headers.get('set-cookie')!.split(';')[0]!
    const page = await (await fetch(new URL('/', url), { headers: { cookie } })).text()
    expect(page).toContain('first question')
    const live = /"live":"([^"]+)"/.exec(page)![1]!
    const streamed = readStreamUntil(
      new URL(live, url).href,
      cookie,
      (t) => t.includes('appended later'),
      5000,
    )
    await new Promise((resolve) => setTimeout(resolve, 300))
    recorder.record('user', { text: 'appended later' })
    await recorder.flush()
    expect(await streamed).toContain('appended later')
    await recorder.close()
    const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
      child.on('exit', (code, signal) => resolve(signal ?? code)),
    )
    child.kill('SIGINT')
    expect(await exited).toBe('SIGINT')
  })

  it('says which path is missing (exit 2)', async () => {
    const child = startCli('view', '--no-open', join(tmpdir(), 'no-such-session.jsonl'))
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)))
    expect(code).toBe(2)
    expect(stderr).toMatch(/no such file or folder/)
  })
})
