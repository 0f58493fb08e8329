import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { OpenCodeDbError, readOpenCodeDb } from '@sessiontape/sessions'
import { OPENCODE_SCHEMA, openCodeSessionSql } from './fixtures/opencode-db.js'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A store whose schema and first session are checkpointed into the file, the second only in the -wal. */
function storeWithSecondSessionInWal(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'opencode-wal-'))
  dirs.push(dir)
  const file = path.join(dir, 'opencode.db')
  const made = spawnSync('sqlite3', [file], {
    input: `PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0;\n${OPENCODE_SCHEMA}\n${openCodeSessionSql('ses_1', '/w')}
PRAGMA wal_checkpoint(TRUNCATE);\nBEGIN;\n${openCodeSessionSql('ses_2', '/w')}\nCOMMIT;\n.shell kill -9 $PPID\n`,
  })
  expect(made.signal).toBe('SIGKILL')
  return file
}

async function sessionIds(file: string): Promise<(string | undefined)[]> {
  return (await readOpenCodeDb(file)).sessions.map((s) => s.sessionId)
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(OpenCodeDbError)
  return (error as OpenCodeDbError).code
}

describe('only WAL frames whose checksums hold, up to the last commit, are applied', () => {
  it('reads the commit held only in the log', async () => {
    expect(await sessionIds(storeWithSecondSessionInWal())).toEqual(['ses_1', 'ses_2'])
  })

  it('drops the last transaction when its commit frame is cut short', async () => {
    const file = storeWithSecondSessionInWal()
    const wal = readFileSync(`${file}-wal`)
    truncateSync(`${file}-wal`, wal.length - 100)
    const db = await readOpenCodeDb(file)
    expect(db.sessions.map((s) => s.sessionId)).toEqual(['ses_1'])
    expect(db.framesApplied).toBe(0)
  })

  it('drops every frame from one whose page bytes changed (running checksum)', async () => {
    const file = storeWithSecondSessionInWal()
    const wal = readFileSync(`${file}-wal`)
    wal[32 + 24 + 10] = wal[32 + 24 + 10]! ^ 0xff
    writeFileSync(`${file}-wal`, wal)
    expect(await sessionIds(file)).toEqual(['ses_1'])
  })

  it('refuses past the bound, and names a file that is not SQLite or not OpenCode', async () => {
    const file = storeWithSecondSessionInWal()
    expect(await codeOf(readOpenCodeDb(file, { maxBytes: 4096 }))).toBe('ERR_OPENCODE_DB_TOO_LARGE')
    const text = path.join(path.dirname(file), 'notes.db')
    writeFileSync(text, 'not a database at all, only text\n')
    expect(await codeOf(readOpenCodeDb(text))).toBe('ERR_NOT_SQLITE')
    const other = path.join(path.dirname(file), 'other.db')
    spawnSync('sqlite3', [other], { input: 'CREATE TABLE t (x);\n' })
    expect(await codeOf(readOpenCodeDb(other))).toBe('ERR_NOT_OPENCODE_DB')
    expect(() => readOpenCodeDb(file, { maxBytes: -1 })).toThrow(/maxBytes/)
  })
})
