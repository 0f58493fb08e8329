// Every TypeScript sample in every README compiles against the packages' live sources: the shutdown
// README's headline example once called `recorder.close({ signal })` (TS2554) and nothing noticed.
// Each sample is checked as its own ESM module; what a README's samples assume exists (a `recorder`, a
// `workspace` path) is declared once per README below, with its real type.
import { beforeAll, describe, expect, it } from 'vitest'
import { extractSamples, READMES, typeCheck, type Sample } from './helpers/readme-samples.js'

/** Per README: declarations of what its samples take as given (one line, prepended to each sample). */
const PREAMBLE: Readonly<Record<string, string>> = {
  'packages/shutdown/README.md': `
    declare const recorder: import('@sessiontape/recorder').Recorder;
    declare const mcp: { disconnect(): Promise<void> };`,
  'packages/fs-cache/README.md': `
    declare const workspace: string, target: string, dir: string, text: string, sessionDir: string;`,
  'packages/recorder/README.md': `
    declare const filePath: string, dir: string, sessionId: string;`,
  'packages/sessions/README.md': `
    import { createRecorder } from '@sessiontape/recorder';
    declare const file: string, dir: string, dirOrFile: string;`,
  'docs/reading.md': `
    declare const filePath: string, dir: string, sessionId: string;`,
  'docs/other-agents.md': `
    declare const filePath: string, dir: string, sessionId: string;`,
}

/**
 * recorder README: owned by the write-core work. Samples known not to compile yet, each with the reason;
 * the lead fixes them and empties this list (a listed sample that compiles fails the test, so the list
 * cannot go stale).
 */
const RECORDER_README_KNOWN_FAILURES: ReadonlyMap<string, string> = new Map<string, string>([])

const samples: Sample[] = READMES.flatMap((readme) => extractSamples(readme))
let diagnostics: Map<string, string[]>

beforeAll(() => {
  diagnostics = typeCheck(samples, PREAMBLE)
}, 120_000)

describe('README code samples', () => {
  it('are found (the extraction itself works)', () => {
    expect(samples.length).toBeGreaterThanOrEqual(5)
    expect(samples.map((s) => s.id)).toContain('packages/shutdown/README.md#1')
  })

  it('are all TypeScript (a sample in a language we do not check would go unchecked)', () => {
    expect(samples.filter((s) => s.lang !== 'ts' && s.lang !== 'typescript').map((s) => s.id)).toEqual([])
  })

  describe.for(samples.map((s) => [s.id, s] as const))('%s', ([id]) => {
    it(RECORDER_README_KNOWN_FAILURES.has(id) ? 'still fails (allowlisted)' : 'compiles', () => {
      const errors = diagnostics.get(id) ?? []
      if (RECORDER_README_KNOWN_FAILURES.has(id)) {
        expect(
          errors.length,
          `${id} compiles now: remove it from RECORDER_README_KNOWN_FAILURES`,
        ).toBeGreaterThan(0)
      } else {
        expect(errors).toEqual([])
      }
    })
  })
})
