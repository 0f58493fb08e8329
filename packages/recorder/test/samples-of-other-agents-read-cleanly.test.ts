import { existsSync, readFileSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { activeBranch, readSession } from '../src/index.js'
import { scanTranscript } from '../src/read/scan-transcript.js'

// Real-format transcripts of other agents kept beside the repository (see ../shared/samples/README.md);
// they are other projects' test data, so they are read from there, never copied in.
const SAMPLES = path.resolve(import.meta.dirname, '../../../../shared/samples')
const present = existsSync(SAMPLES)
const files = present
  ? readdirSync(SAMPLES, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .flatMap((entry) =>
        readdirSync(path.join(SAMPLES, entry.name)).map((name) => path.join(entry.name, name)),
      )
  : []
// Deliberately damaged by its authors (bad JSON, non-objects, a duplicated uuid).
const DAMAGED = new Set(['claude-code/edge_cases.jsonl'])

describe.skipIf(!present)(`the other agents' samples in ${SAMPLES}`, () => {
  it.for(files.filter((f) => f.endsWith('.jsonl')))(
    '%s: every line with a uuid is a record',
    async (name) => {
      const file = path.join(SAMPLES, name)
      const session = await readSession(file)
      if (session.format === 'gemini-cli') return
      const withUuid = readFileSync(file, 'utf8')
        .split('\n')
        .filter((text) => {
          try {
            const value = JSON.parse(text) as { uuid?: unknown }
            return typeof value.uuid === 'string' && value.uuid.length > 0
          } catch {
            return false
          }
        })
      expect(session.records).toHaveLength(withUuid.length)
    },
  )

  it.for(files.filter((f) => !DAMAGED.has(f)))('%s: intact, so verify finds no problem', async (name) => {
    const scan = await scanTranscript(path.join(SAMPLES, name))
    expect(scan.format).not.toBe('sessiontape')
    expect(scan.problems).toEqual([])
  })

  it('the active branch of dag_compact_after_rewind.jsonl crosses the compaction', async () => {
    const { records } = await readSession(path.join(SAMPLES, 'claude-code/dag_compact_after_rewind.jsonl'))
    const branch = activeBranch(records)
    expect(branch.records.map((r) => r.uuid)).toEqual([
      'u1',
      'a1',
      'b2u',
      'b2a',
      'b2u2',
      'b2a2',
      'cb',
      'cs',
      'p1u',
      'p1a',
    ])
    expect(branch.gaps).toEqual([])
  })

  it('the Gemini replay yields the messages left after $rewindTo', async () => {
    const { records } = await readSession(
      path.join(SAMPLES, 'gemini-cli/session-2026-10-01T09-00-a1b2c3d4.jsonl'),
    )
    expect(records.map((r) => [r.uuid, r.type])).toEqual([['6a0e3e5a-1111-4000-8000-000000000002', 'user']])
  })
})
