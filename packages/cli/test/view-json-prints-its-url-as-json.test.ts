import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createRecorder } from '@sessiontape/recorder'
import { describe, expect, it, onTestFinished, vi } from 'vitest'
import { startCli } from './helpers/cli.js'
import { CHILD_PROCESS_TEST_TIMEOUT_MS } from '../../recorder/test/helpers/timeouts.js'

// Raised for this file: see the recorder's helpers/timeouts.ts (a hang detector, not a bound on speed).
vi.setConfig({ testTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS })

describe('`view --json` prints its first line as JSON, like every command under --json', () => {
  it('{"url": …} on the first line of stdout, and the URL serves the session', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'st-cli-view-json-'))
    const recorder = createRecorder({ dir })
    recorder.record('user', { text: 'a question' })
    await recorder.close()
    const child = startCli('view', '--json', '--no-open', recorder.filePath)
    onTestFinished(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    })
    let stdout = ''
    const firstLine = await new Promise<string>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString()
        if (stdout.includes('\n')) resolve(stdout.split('\n')[0]!)
      })
    })
    const { url } = JSON.parse(firstLine) as { url: string }
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{43}$/)
    const granted = await fetch(url, { redirect: 'manual' })
    const cookie = granted.headers.get('set-cookie')!.split(';')[0]!
    expect(await (await fetch(new URL('/', url), { headers: { cookie } })).text()).toContain('a question')
    const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
      child.on('exit', (code, signal) => resolve(signal ?? code)),
    )
    child.kill('SIGINT')
    expect(await exited).toBe('SIGINT')
  })
})
