import { mkdtemp, readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createRecorder } from '@sessiontape/recorder'
import { exportSession } from '@sessiontape/sessions'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'sessions-md-late-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** A transcript of ours with no `session` record: two turns, the title set during the second. */
async function sessionTitledLate(sessionId: string): Promise<string> {
  const recorder = createRecorder({ dir, sessionId })
  recorder.recordTurn({ kind: 'user', text: 'Fix the login bug' })
  recorder.recordTurn({ kind: 'assistant', text: 'Fixed.' })
  recorder.recordTurn({ kind: 'user', text: 'Thanks' })
  recorder.recordTurn({ kind: 'title', title: 'Login bug' })
  recorder.recordTurn({ kind: 'assistant', text: 'You are welcome.' })
  await recorder.close()
  return recorder.filePath
}

describe('a Markdown export of a session titled after its first turn', () => {
  it('names the session from its records and the late title in the totals', async () => {
    const file = await sessionTitledLate('6f1c2f0e-5b43-4d55-9a39-3c2f7a3f0b11')
    const out = path.join(dir, 'session.md')
    await exportSession(file, { format: 'md', out })
    const md = await readFile(out, 'utf8')
    // The header is written with the first turn: it names the session by its id, from the records' envelope.
    expect(md.startsWith('# Session 6f1c2f0e-5b43-4d55-9a39-3c2f7a3f0b11\n\n')).toBe(true)
    expect(md).toContain('\n- Session: 6f1c2f0e-5b43-4d55-9a39-3c2f7a3f0b11\n')
    // The title came later: the totals name it, once; the id is not repeated there.
    const totals = md.slice(md.indexOf('## Totals'))
    expect(totals).toContain('\n- Title: Login bug\n')
    expect(totals).not.toContain('- Session:')
    expect(md.match(/- Title: /g)).toHaveLength(1)
    // Where it was set, it is shown too (the default export is the active branch: a title is on every branch).
    expect(md).toContain('\n_Title: Login bug_\n')
  })

  it('does not repeat a title the header already has', async () => {
    const recorder = createRecorder({ dir, sessionId: 'early-title' })
    recorder.recordTurn({ kind: 'title', title: 'Set first' })
    recorder.recordTurn({ kind: 'user', text: 'hello' })
    await recorder.close()
    const out = path.join(dir, 'early.md')
    await exportSession(recorder.filePath, { format: 'md', out })
    const md = await readFile(out, 'utf8')
    expect(md.startsWith('# Set first\n\n')).toBe(true)
    expect(md).not.toContain('- Title:')
  })
})
