import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { readOpenCodeDb } from '@sessiontape/sessions'
import { OPENCODE_SCHEMA, openCodeSessionSql } from './fixtures/opencode-db.js'
import { SqliteWriter } from './fixtures/sqlite-writer.js'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'opencode-db-'))
  dirs.push(dir)
  return dir
}

/** Every file beside the database, with its size and mtime: what a reader must leave as it found it. */
function filesOf(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const name of readdirSync(dir)) {
    const stat = statSync(path.join(dir, name), { bigint: true })
    out[name] = `${stat.size}:${stat.mtimeNs}`
  }
  return out
}

describe('an OpenCode database is read while a writer holds it open in WAL mode', () => {
  it('reads the commits that are only in the -wal file, leaves out an open transaction, creates nothing', async () => {
    const dir = tempDir()
    const file = path.join(dir, 'opencode.db')
    const writer = new SqliteWriter(file)
    try {
      await writer.run(`PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0;\n${OPENCODE_SCHEMA}`)
      await writer.run(openCodeSessionSql('ses_a', '/work/a'))
      // Every commit so far is in the log: the database file itself still has no session row.
      expect(statSync(`${file}-wal`).size).toBeGreaterThan(0)
      const before = filesOf(dir)
      const first = await readOpenCodeDb(file)
      expect(filesOf(dir)).toEqual(before)
      expect(first.framesApplied).toBeGreaterThan(0)
      expect(first.sessions.map((s) => s.sessionId)).toEqual(['ses_a'])
      const kinds = first.sessions[0]!.events.map((e) => e.kind)
      expect(kinds).toEqual(
        expect.arrayContaining(['user', 'thinking', 'tool-call', 'tool-result', 'assistant', 'usage']),
      )

      // A transaction larger than the page cache spills uncommitted frames into the log: not visible.
      await writer.run(
        `PRAGMA cache_size=1; BEGIN; ${openCodeSessionSql('ses_b', '/work/b')}
         WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
         INSERT INTO part SELECT 'ses_b_x' || i, 'ses_b_m2', 'ses_b', 1, 1, '{"type":"text","text":"' || hex(randomblob(200)) || '"}' FROM n;`,
      )
      const during = await readOpenCodeDb(file)
      expect(during.framesNotCommitted).toBeGreaterThan(0)
      expect(during.sessions.map((s) => s.sessionId)).toEqual(['ses_a'])
      expect(filesOf(dir)).toEqual(filesOf(dir))

      await writer.run('COMMIT;')
      const after = await readOpenCodeDb(file)
      expect(after.sessions.map((s) => s.sessionId)).toEqual(['ses_a', 'ses_b'])
      const b = after.sessions[1]!
      expect(b.events.filter((e) => e.kind === 'assistant')).toHaveLength(301)
    } finally {
      await writer.close()
    }
  })

  it('reads a log a killed writer left behind, without its -shm index, and creates none', async () => {
    const dir = tempDir()
    const file = path.join(dir, 'opencode.db')
    const writer = new SqliteWriter(file)
    await writer.run(`PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0;\n${OPENCODE_SCHEMA}`)
    await writer.run(openCodeSessionSql('ses_k', '/work/k', { prompt: 'only in the log' }))
    await writer.kill()
    rmSync(`${file}-shm`, { force: true })
    const before = filesOf(dir)
    expect(Object.keys(before).sort()).toEqual(['opencode.db', 'opencode.db-wal'])
    const db = await readOpenCodeDb(file)
    expect(filesOf(dir)).toEqual(before)
    const user = db.sessions[0]!.events.find((e) => e.kind === 'user')
    expect(user).toMatchObject({ text: 'only in the log' })
  })
})
