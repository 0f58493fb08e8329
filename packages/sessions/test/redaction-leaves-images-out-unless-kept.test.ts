/**
 * Under `--redact` an image never carries its bytes into the export (a screenshot can show a secret no text
 * rule reads): it becomes a placeholder, unless `--keep-images`. Checked on what `sessiontape export` prints,
 * run as a child process, for a Claude Code session whose user pasted a PNG and whose tool returned one.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const REPO = path.resolve(import.meta.dirname, '../../..')
const CLI = ['--conditions=@sessiontape/source', '--import', 'tsx', 'packages/cli/src/main.ts']
const run = promisify(execFile)

/** 1×1 PNGs, one per place: their base64 is what must not be printed. */
const PASTED =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='
const SCREENSHOT =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mP8/x8AAwMCAO+ip1sAAAAASUVORK5CYII='

function session(): string {
  const line = (n: number, type: 'user' | 'assistant', content: unknown): string =>
    JSON.stringify({
      parentUuid: n === 1 ? null : `00000000-0000-4000-8000-00000000000${n - 1}`,
      isSidechain: false,
      userType: 'external',
      cwd: '/home/dev/app',
      sessionId: 'images-0000-4000-8000-000000000001',
      version: '2.0.14',
      type,
      message:
        type === 'user'
          ? { role: 'user', content }
          : { id: `msg_${n}`, role: 'assistant', model: 'claude-sonnet-4-5', content },
      uuid: `00000000-0000-4000-8000-00000000000${n}`,
      timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
    })
  const image = (data: string): unknown => ({
    type: 'image',
    source: { type: 'base64', media_type: 'image/png', data },
  })
  const dir = mkdtempSync(path.join(tmpdir(), 'st-images-'))
  const file = path.join(dir, 'images.jsonl')
  writeFileSync(
    file,
    [
      line(1, 'user', [{ type: 'text', text: 'What is wrong on this page?' }, image(PASTED)]),
      line(2, 'assistant', [
        { type: 'tool_use', id: 'toolu_1', name: 'Screenshot', input: { url: 'http://localhost:3000' } },
      ]),
      line(3, 'user', [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [image(SCREENSHOT)] }]),
      line(4, 'assistant', [{ type: 'text', text: 'The button is hidden.' }]),
    ].join('\n') + '\n',
  )
  return file
}

async function exported(...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [...CLI, 'export', ...args], { cwd: REPO })
  return stdout
}

/** Whether any 16-character piece of an image's base64 is in the output. */
function holdsBytes(output: string, base64: string): boolean {
  for (let i = 0; i + 16 <= base64.length; i += 4) if (output.includes(base64.slice(i, i + 16))) return true
  return false
}

describe('images under --redact', { timeout: 120_000 }, () => {
  it('are placeholders without --keep-images, and shown with it (or without --redact)', async () => {
    const file = session()
    const redacted = await exported(file, '--redact', '--format', 'html')
    for (const image of [PASTED, SCREENSHOT]) expect(holdsBytes(redacted, image)).toBe(false)
    expect(redacted).not.toContain('data:image/png;base64')
    const kept = await exported(file, '--redact', '--keep-images', '--format', 'html')
    const plain = await exported(file, '--format', 'html')
    for (const output of [kept, plain])
      for (const image of [PASTED, SCREENSHOT]) expect(output).toContain(`data:image/png;base64,${image}`)
  })
})
