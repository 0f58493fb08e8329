import { execFile } from 'node:child_process'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { tempDir } from './helpers/temp-dir.js'

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const fixture = path.join(packageDir, 'test', 'fixtures', 'ensure-dir-on-exit.ts')

describe('ensureDirSync works where only synchronous code runs', () => {
  it("creates nested directories from a process 'exit' listener (mode 0o700)", async () => {
    const dir = await tempDir()
    const run = promisify(execFile)(
      process.execPath,
      ['--conditions=@sessiontape/source', '--import', 'tsx', fixture, dir],
      { cwd: packageDir },
    )
    const exitCode = await run.then(
      () => 0,
      (err: { code?: number }) => err.code,
    )
    expect(exitCode).toBe(7)
    const target = path.join(dir, 'drain', 'nested')
    expect(fs.readFileSync(path.join(target, 'marker'), 'utf8')).toBe('written at exit\n')
    expect(fs.statSync(target).mode & 0o777).toBe(0o700)
  })
})
