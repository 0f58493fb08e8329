import { existsSync, readFileSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { activeBranch, readSession } from '../src/index.js'
import { scanTranscript } from '../src/read/scan-transcript.js'

// Real-format transcripts of other agents kept beside the repository (see ../shared/samples/README.md);
// they are other projects' test data, so they are read from there, never copied in.
// (SESSIONTAPE_SAMPLES points elsewhere: a worktree that is not beside ../shared.)
const SAMPLES = path.resolve(
  process.env.SESSIONTAPE_SAMPLES ?? path.join(import.meta.dirname, '../../../../shared/samples'),
)
const present = existsSync(SAMPLES)
// Every file below the agents' folders (some keep an agent's own layout: sub-agent and session folders).
const files = present
  ? readdirSync(SAMPLES, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.parentPath !== SAMPLES)
      .map((entry) => path.relative(SAMPLES, path.join(entry.parentPath, entry.name)))
      .sort()
  : []
/** Files that are not intact transcripts, each with the reason; everything else must read without a problem. */
const NOT_INTACT = new Map([
  [
    'claude-code/edge_cases.jsonl',
    'deliberately damaged by its authors (bad JSON, non-objects, a duplicated uuid)',
  ],
  [
    'copilot-cli/stage0-small.jsonl',
    'its authors scrubbed the ids of lines 17–32 to one placeholder: those events repeat one id (duplicates, a parentId loop)',
  ],
  [
    'codex-cli/codemie-synthetic-turns/expected-conversation.jsonl',
    "not a transcript: codemie's expected output for the turn files beside it",
  ],
])
/** Lines of these formats that carry no uuid but are records (see docs/formats.md). */
const IDLESS_FORMATS = new Set(['codex-cli', 'copilot-cli', 'cursor-cli'])

describe.skipIf(!present)(`the other agents' samples in ${SAMPLES}`, () => {
  it.for(files.filter((f) => f.endsWith('.jsonl')))(
    '%s: every line with a uuid is a record',
    async (name) => {
      const file = path.join(SAMPLES, name)
      const session = await readSession(file)
      if (session.format === 'gemini-cli' || IDLESS_FORMATS.has(session.format)) return
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

  it.for(files.filter((f) => !NOT_INTACT.has(f)))('%s: intact, so verify finds no problem', async (name) => {
    const scan = await scanTranscript(path.join(SAMPLES, name))
    expect(scan.format).not.toBe('sessiontape')
    expect(scan.problems).toEqual([])
  })

  it.for(files.filter((f) => !NOT_INTACT.has(f) && f.endsWith('.jsonl')))(
    '%s: every line is a record or metadata',
    async (name) => {
      const file = path.join(SAMPLES, name)
      const session = await readSession(file)
      if (session.format === 'gemini-cli') return
      const nonBlank = readFileSync(file, 'utf8')
        .split('\n')
        .filter((text) => text.trim().length > 0).length
      expect(session.records.length + session.metadata.length).toBe(nonBlank)
    },
  )

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
