// The small examples are documentation that runs: each must still do what examples/README.md says.
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { examplesDir, runAgent } from './helpers/agent-process.js'

const basics = (name: string): string => join(examplesDir, 'basics', `${name}.ts`)

describe('examples/basics', () => {
  it('record-and-flush: two records, one flush, two lines on disk', async () => {
    const { code, stdout, stderr } = await runAgent([], basics('record-and-flush'))
    expect(code, stderr).toBe(0)
    expect(stdout).toMatch(/recorded 2 events/)
    expect(stdout).toMatch(/persisted 2 records through [0-9a-f-]{36}/)
    expect(stdout).toMatch(/holds 2 lines/)
  })

  it('resume-after-crash: the torn tail is reported, then repaired on resume', async () => {
    const { code, stdout, stderr } = await runAgent([], basics('resume-after-crash'))
    expect(code, stderr).toBe(0)
    expect(stdout).toMatch(/before resume: 2 records, problems: torn-tail/)
    expect(stdout).toMatch(/after resume: 4 records, problems: 0/)
    expect(stdout).toMatch(/types: user → assistant → recovered → user/)
  })

  it('graceful-shutdown: every cleanup is reported, the hung one by name', async () => {
    const { code, stderr } = await runAgent([], basics('graceful-shutdown'))
    expect(code, stderr).toBe(0)
    expect(stderr).toMatch(/timed-out\s+slow-exporter/)
    expect(stderr).toMatch(/failed\s+close-socket/)
    expect(stderr).toMatch(/ok\s+flush-transcript/)
  })

  it('path-cache-in-a-tool: a new file is seen at once, an escaping symlink is refused', async () => {
    const { code, stdout, stderr } = await runAgent([], basics('path-cache-in-a-tool'))
    expect(code, stderr).toBe(0)
    const lines = stdout.split('\n')
    expect(lines[0]).toBe('not found: notes.md')
    expect(lines[1]).toBe('ok: notes.md (8 bytes)')
    expect(lines[2]).toBe('refused: escape/secrets.txt leaves the workspace')
    expect(stdout).toMatch(/hits: \d{3,}/)
  })
})
