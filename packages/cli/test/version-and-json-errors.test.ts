import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from './helpers/cli.js'
import { withTempDir } from '../../recorder/test/helpers/records.js'

const manifest = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string
}

describe('sessiontape --version, and errors as JSON under --json', () => {
  it('prints the package version', async () => {
    expect(await runCli('--version')).toEqual({ code: 0, stdout: `${manifest.version}\n`, stderr: '' })
  })

  it.for([
    { args: (dir: string) => ['verify', '--json', path.join(dir, 'missing.jsonl')], code: 'ENOENT', exit: 2 },
    { args: (dir: string) => ['show', '--json', dir], code: 'EISDIR', exit: 2 },
    { args: (dir: string) => ['list', '--json', path.join(dir, 'nope')], code: 'ENOENT', exit: 2 },
    { args: () => ['verify', '--json', '--bogus'], code: 'ERR_USAGE', exit: 2 },
    { args: () => ['frobnicate', '--json'], code: 'ERR_USAGE', exit: 2 },
  ])('$code: one JSON object on stdout, the exit code', async ({ args, code, exit }) => {
    await withTempDir(async (dir) => {
      const result = await runCli(...args(dir))
      expect(result.code).toBe(exit)
      expect(result.stderr).toBe('')
      expect(JSON.parse(result.stdout)).toEqual({
        error: { code, message: expect.any(String) as string, exitCode: exit },
      })
    })
  })

  it('prints errors as text on stderr without --json', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 'missing.jsonl')
      expect(await runCli('verify', file)).toEqual({
        code: 2,
        stdout: '',
        stderr: `sessiontape verify: no such file: ${file}\n`,
      })
    })
  })
})
