import path from 'node:path'
import { listSessions } from '@sessiontape/recorder'
import { describe, expect, it } from 'vitest'
import { catalogSessions, searchSessions } from '../src/index.js'
import { withTemp } from './helpers/claude-sessions.js'

const CODEX = path.join(import.meta.dirname, '../../recorder/test/fixtures/formats/codex-sessions')
const THREAD = '4b5c6d7e-8f90-4a1b-9c2d-3e4f5a6b7c8d'
const COMPRESSED_ALONE = '9e8d7c6b-5a49-4382-b1a0-f9e8d7c6b5a4'

describe("Codex CLI's rollouts in the catalog", () => {
  it('a thread kept in a compressed rollout and a segment is one session, as the recorder lists it', async () => {
    await withTemp(async (root) => {
      const options = { dirs: [CODEX], cacheDir: path.join(root, 'cache') }
      const sessions = await catalogSessions(options)
      const recorder = await listSessions(CODEX)
      // The same sessions, files and record counts as the recorder's listing (which reads every file whole).
      const view = (
        rows: readonly { sessionId: string; recordCount: number; segments?: readonly string[] }[],
      ) => rows.map((s) => [s.sessionId, s.recordCount, s.segments ?? []]).sort()
      expect(view(sessions)).toEqual(view(recorder))
      expect(sessions.map((s) => s.file).sort()).toEqual(recorder.map((s) => s.filePath).sort())
      const thread = sessions.find((s) => s.sessionId === THREAD)!
      expect(thread).toMatchObject({ recordCount: 6, format: 'codex-cli' })
      expect(thread.segments!.map((file) => path.basename(file))).toEqual([
        `rollout-2026-05-14T08-00-00-${THREAD}.jsonl.zst`,
        `rollout-2026-05-15T08-00-00-${THREAD}_seg-0002.jsonl`,
      ])
      expect(thread.file).toBe(thread.segments!.at(-1))

      // The warm call reads from the cache and gives the same answer.
      expect(await catalogSessions(options)).toEqual(sessions)
    })
  })

  it('a compressed rollout is searched like any other', async () => {
    await withTemp(async (root) => {
      const { hits } = await searchSessions('changelog', {
        dirs: [CODEX],
        cacheDir: path.join(root, 'cache'),
      })
      expect(hits.map((hit) => [hit.sessionId, hit.role, path.basename(hit.file)])).toEqual([
        [COMPRESSED_ALONE, 'user', `rollout-2026-05-11T09-00-00-${COMPRESSED_ALONE}.jsonl.zst`],
      ])
    })
  })
})
