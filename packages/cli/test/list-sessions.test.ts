import { readdir } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runInProcess } from './helpers/cli.js'
import { withTempDir } from '../../recorder/test/helpers/records.js'
import { meta, writeMetaFile, writeTranscript } from '../../recorder/test/helpers/sessions.js'

describe('sessiontape list prints the sessions of a directory, newest first', () => {
  it('prints a table, and the same sessions as JSON with --json', async () => {
    await withTempDir(async (dir) => {
      await writeTranscript(dir, 'older', 2)
      await writeMetaFile(dir, meta('older', '2026-01-01T00:00:00.000Z', 2, 'First try'))
      await writeTranscript(dir, 'newer', 5)
      await writeMetaFile(dir, meta('newer', '2026-02-01T10:30:00.000Z', 5, 'Refactor the parser'))
      await writeTranscript(dir, 'rebuilt', 3)
      const table = await runInProcess('list', dir)
      expect(table.code).toBe(0)
      expect(table.stdout.split('\n')).toEqual([
        'UPDATED               RECORDS  SESSION  TITLE',
        '2026-02-01 10:30:00Z        5  newer    Refactor the parser',
        '2026-01-01 00:00:02Z        3  rebuilt',
        '  ↳ no sidecar; rebuilt from the transcript',
        '2026-01-01 00:00:00Z        2  older    First try',
        `3 session(s) in ${dir}`,
        '',
      ])
      const json = JSON.parse((await runInProcess('list', '--json', dir)).stdout) as {
        sessionId: string
        filePath: string
      }[]
      expect(json.map((s) => s.sessionId)).toEqual(['newer', 'rebuilt', 'older'])
      expect(json[0]?.filePath).toBe(path.join(dir, 'newer.jsonl'))
    })
  })

  it('saves rebuilt sidecars only with --rebuild-meta', async () => {
    await withTempDir(async (dir) => {
      await writeTranscript(dir, 's1', 3)
      await runInProcess('list', dir)
      expect(await readdir(dir)).toEqual(['s1.jsonl'])
      const { stdout } = await runInProcess('list', '--rebuild-meta', dir)
      expect(stdout).toContain('  ↳ no sidecar; rebuilt from the transcript and saved\n')
      expect((await readdir(dir)).sort()).toEqual(['.sessiontape', 's1.jsonl'])
      expect(await readdir(path.join(dir, '.sessiontape'))).toEqual(['s1.meta.json'])
    })
  })

  it('says so when there are no sessions', async () => {
    await withTempDir(async (dir) => {
      expect(await runInProcess('list', dir)).toEqual({
        code: 0,
        stdout: `No sessions in ${dir}\n`,
        stderr: '',
      })
    })
  })
})
