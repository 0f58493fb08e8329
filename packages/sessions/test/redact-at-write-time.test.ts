import { mkdtempSync, readFileSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createRecorder } from '@sessiontape/recorder'
import { describe, expect, it } from 'vitest'
import { redactRecordHook, type RedactionReport } from '../src/index.js'
import { fakeSecrets } from './fixtures/fake-secrets.js'

describe("the recorder's redact hook", () => {
  it('writes no planted secret to disk and reports what it replaced', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'st-redact-hook-'))
    const reports: RedactionReport[] = []
    const recorder = createRecorder({ dir, redact: redactRecordHook({ onRedact: (r) => reports.push(r) }) })
    const secrets = fakeSecrets(30, 11)
    for (const secret of secrets)
      recorder.record('tool_result', { output: secret.text, nested: { env: [secret.text] } })
    await recorder.close()
    const file = readdirSync(dir).find((name) => name.endsWith('.jsonl'))!
    const bytes = readFileSync(join(dir, file), 'utf8')
    for (const secret of secrets) {
      // Inside JSON a secret's newlines are \n escapes: check each line of it.
      for (const part of secret.secret.split('\n')) expect(bytes).not.toContain(part)
    }
    expect(bytes).toContain('[REDACTED:')
    expect(reports.length).toBe(30)
    expect(reports.every((r) => r.total >= 2)).toBe(true)
  })

  it('rejects a non-function onRedact at the call', () => {
    expect(() => redactRecordHook({ onRedact: 3 as never })).toThrow(/Expected `onRedact` to be a function/)
  })
})
