import fs from 'node:fs'
import { readFile, stat, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

import { createRecorder, listSessions, type RecorderError } from '../src/index.js'
import { runInProcess } from '../../cli/test/helpers/cli.js'
import { CORRUPT_TAIL, writeCorruptTranscript } from './helpers/corrupt-transcript.js'
import { withTempDir } from './helpers/records.js'
import { filesIn, meta, setMtime, writeTranscript } from './helpers/sessions.js'

/**
 * What a log shipper pointed at `<dir>/*.jsonl` or `<dir>/*` reads: glob(3) (rsyslog imfile, Fluent Bit,
 * syslog-ng wildcard-file) matches no dot-name with `*` and never descends into a subdirectory.
 */
function shippedBy(dir: string, glob: '*' | '*.jsonl'): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => !entry.name.startsWith('.') && entry.isFile())
    .filter((entry) => glob === '*' || entry.name.endsWith('.jsonl'))
    .map((entry) => entry.name)
    .sort()
}

describe('only transcripts match `*.jsonl` and `*` in a sessions directory: the rest lives in .sessiontape/', () => {
  it('sidecars, locks, owner files, rebuilt sidecars and repaired copies never reach the top level', async () => {
    await withTempDir(async (dir) => {
      const live = createRecorder({ dir, sessionId: 'live', metaDebounceMs: 0 })
      live.record('event')
      await live.flush()
      // While it is open: the lock, its owner file and the sidecar are all in .sessiontape.
      await expect.poll(() => fs.existsSync(path.join(dir, '.sessiontape', 'live.meta.json'))).toBe(true)
      expect((await filesIn(dir)).sort()).toEqual([
        '.sessiontape/live.jsonl.lock',
        '.sessiontape/live.jsonl.lock.owner',
        '.sessiontape/live.meta.json',
        'live.jsonl',
      ])
      expect((await stat(path.join(dir, '.sessiontape'))).mode & 0o777).toBe(0o700)
      await writeTranscript(dir, 'rebuilt', 2)
      await listSessions(dir, { writeRebuiltMeta: true })
      await writeCorruptTranscript(path.join(dir, 'damaged.jsonl'))
      expect((await runInProcess('repair', path.join(dir, 'damaged.jsonl'))).code).toBe(0)
      const everything = ['damaged.jsonl', 'live.jsonl', 'rebuilt.jsonl']
      expect(shippedBy(dir, '*')).toEqual(everything)
      expect(shippedBy(dir, '*.jsonl')).toEqual(everything)
      await live.close()
      const sidecars = (await filesIn(dir)).filter((name) => name.startsWith('.sessiontape/'))
      expect(sidecars).toEqual([
        expect.stringMatching(/^\.sessiontape\/damaged\.jsonl\.repaired-\d{8}T\d{9}Z$/),
        '.sessiontape/live.meta.json',
        '.sessiontape/rebuilt.meta.json',
      ])
      expect(shippedBy(dir, '*')).toEqual(everything)
    })
  })

  it('a resume and a torn-tail repair add nothing beside the transcript either', async () => {
    await withTempDir(async (dir) => {
      const first = createRecorder({ dir, sessionId: 's1', meta: false })
      first.record('event')
      await first.close()
      fs.appendFileSync(path.join(dir, 's1.jsonl'), CORRUPT_TAIL)
      const resumed = createRecorder({ dir, sessionId: 's1', resume: true, meta: false })
      resumed.record('event')
      await resumed.close()
      fs.appendFileSync(path.join(dir, 's1.jsonl'), CORRUPT_TAIL)
      expect((await runInProcess('repair', path.join(dir, 's1.jsonl'))).code).toBe(0)
      expect(await filesIn(dir)).toEqual(['s1.jsonl'])
    })
  })

  it('reads a sidecar of the older layout (next to the transcript), and never writes there', async () => {
    await withTempDir(async (dir) => {
      await writeTranscript(dir, 'old', 3)
      const legacy = path.join(dir, 'old.meta.json')
      const text = JSON.stringify({
        ...meta('old', '2026-01-01T00:00:02.000Z', 3, 'from before'),
        lastUuid: 'u2',
      })
      await writeFile(legacy, text)
      const [listed] = await listSessions(dir, { writeRebuiltMeta: true })
      expect(listed).toMatchObject({
        sessionId: 'old',
        source: 'sidecar',
        title: 'from before',
        recordCount: 3,
      })
      expect(await filesIn(dir)).toEqual(['old.jsonl', 'old.meta.json'])

      // A resume continues its counts; the recorder's sidecar goes to .sessiontape, the old one stays as it was.
      const resumed = createRecorder({ dir, sessionId: 'old', resume: true })
      const last = resumed.record('event')
      await resumed.close()
      expect(await readFile(legacy, 'utf8')).toBe(text)
      const written: unknown = JSON.parse(
        await readFile(path.join(dir, '.sessiontape', 'old.meta.json'), 'utf8'),
      )
      expect(written).toMatchObject({ recordCount: 4, lastUuid: last, title: 'from before' })
      expect((await listSessions(dir))[0]).toMatchObject({ source: 'sidecar', recordCount: 4 })
    })
  })

  it('a stale sidecar of the older layout is rebuilt into .sessiontape and left in place', async () => {
    await withTempDir(async (dir) => {
      await writeTranscript(dir, 'old', 3)
      const legacy = path.join(dir, 'old.meta.json')
      const text = JSON.stringify(meta('old', '2026-01-01T00:00:00.000Z', 1))
      await writeFile(legacy, text)
      await setMtime(legacy, 1_000_000)
      await setMtime(path.join(dir, 'old.jsonl'), 1_000_060)
      const [listed] = await listSessions(dir, { writeRebuiltMeta: true })
      expect(listed).toMatchObject({ source: 'rebuilt', recordCount: 3 })
      expect(await readFile(legacy, 'utf8')).toBe(text)
      expect(await filesIn(dir)).toEqual(['.sessiontape/old.meta.json', 'old.jsonl', 'old.meta.json'])
    })
  })

  it('a symlink at .sessiontape is never followed: the lock is refused (reported), nothing lands in its target', async () => {
    await withTempDir(async (dir) => {
      const elsewhere = path.join(dir, 'elsewhere')
      fs.mkdirSync(elsewhere)
      await symlink(elsewhere, path.join(dir, '.sessiontape'))
      const errors: RecorderError[] = []
      const rec = createRecorder({ dir, sessionId: 's1', onError: (error) => errors.push(error) })
      rec.record('event')
      await expect(rec.ready()).rejects.toMatchObject({
        code: 'ERR_RECORDER_LOCK_FAILED',
        cause: { code: 'ERR_SIDECAR_DIR' },
      })
      await rec.close().catch(() => {
        // The lock was never ours: closing reports the same failure.
      })
      expect(fs.readdirSync(elsewhere)).toEqual([])
      await writeTranscript(dir, 'other', 2)
      const listed = (await listSessions(dir, { writeRebuiltMeta: true })).find(
        (s) => s.sessionId === 'other',
      )
      expect(listed?.note).toMatch(/could not save it \(ERR_SIDECAR_DIR\)/)
      expect(fs.readdirSync(elsewhere)).toEqual([])
    })
  })
})
