import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createRecorder } from '@sessiontape/recorder'
import { describe, expect, it } from 'vitest'
import { runCli } from './helpers/cli.js'

const GITHUB_TOKEN = 'ghp_R8t2Kq9ZxW4mN7vB3cD6fG1hJ5kL0pQ2sT4u'
const AWS_KEY = 'AKIAQ3EGRT5YKZ7WMXPN'

/** A session written by the recorder whose texts carry markup, a terminal escape and two secrets. */
async function hostileTranscript(): Promise<{ dir: string; file: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'st-cli-export-'))
  const recorder = createRecorder({ dir })
  recorder.record('user', { text: `deploy with ${GITHUB_TOKEN} <script>alert(1)</script> \u001b[31mred` })
  recorder.record('assistant', { text: `export AWS_ACCESS_KEY_ID=${AWS_KEY}\n<img src=x onerror=alert(2)>` })
  recorder.record('user', { text: 'thanks' })
  recorder.record('assistant', { text: 'done' })
  await recorder.close()
  return { dir, file: recorder.filePath }
}

describe('sessiontape export', () => {
  it('prints Markdown on stdout, one section per turn, no terminal escape passed on', async () => {
    const { file } = await hostileTranscript()
    const result = await runCli('export', file, '--format', 'md')
    expect(result.code).toBe(0)
    expect(result.stdout.match(/^## Turn \d+/gm)).toHaveLength(2)
    expect(result.stdout).toContain('&lt;script>alert(1)&lt;/script>')
    expect(result.stdout).not.toContain('\u001b')
    expect(result.stdout).toContain(GITHUB_TOKEN)
  })

  it('writes one HTML file with --out, with no secret left under --redact, and reports the counts', async () => {
    const { dir, file } = await hostileTranscript()
    const out = join(dir, 'session.html')
    const result = await runCli('export', file, '--redact', '--out', out, '--json')
    expect(result.code).toBe(0)
    const page = readFileSync(out, 'utf8')
    expect(page).toMatch(/^<!doctype html>/)
    expect(page).not.toContain(GITHUB_TOKEN)
    expect(page).not.toContain(AWS_KEY)
    expect(page).toContain('[REDACTED:github-token]')
    const summary = JSON.parse(result.stdout) as {
      turns: number
      redaction: { total: number; byKind: Record<string, number> }
    }
    expect(summary.turns).toBe(2)
    expect(summary.redaction.byKind).toEqual({ 'aws-access-key': 1, 'github-token': 1 })
  })

  it('refuses to write onto the transcript (exit 3) and rejects an unknown format (exit 2)', async () => {
    const { file } = await hostileTranscript()
    const before = readFileSync(file)
    const onto = await runCli('export', file, '--out', file)
    expect(onto.code).toBe(3)
    expect(onto.stderr).toMatch(/Refusing to export onto the transcript itself/)
    expect(readFileSync(file)).toEqual(before)
    const bad = await runCli('export', file, '--format', 'pdf')
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/unknown --format "pdf"; expected html or md/)
  })
})
