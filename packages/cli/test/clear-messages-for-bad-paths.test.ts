import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli, runInProcess } from './helpers/cli.js'
import { withTempDir } from '../../recorder/test/helpers/records.js'
import { writeTranscript } from '../../recorder/test/helpers/sessions.js'

describe('the CLI says clearly what is wrong with a path, exit code 2', () => {
  it.for(['show', 'verify', 'repair', 'tail'])(
    '`%s` on a missing file and on a directory',
    async (command) => {
      await withTempDir(async (dir) => {
        const missing = path.join(dir, 'nope.jsonl')
        const absent = await runInProcess(command, missing)
        expect(absent).toMatchObject({ code: 2, stdout: '' })
        expect(absent.stderr).toBe(`sessiontape ${command}: no such file: ${missing}\n`)
        const directory = await runInProcess(command, dir)
        expect(directory.code).toBe(2)
        expect(directory.stderr).toContain(
          `${dir} is a directory, but \`${command}\` expects a transcript file`,
        )
        expect(directory.stderr).toContain(`sessiontape list ${dir}`)
      })
    },
  )

  it('`list` on a missing directory and on a file', async () => {
    await withTempDir(async (dir) => {
      await writeTranscript(dir, 's1', 1)
      const file = path.join(dir, 's1.jsonl')
      expect((await runInProcess('list', path.join(dir, 'nope'))).stderr).toBe(
        `sessiontape list: no such directory: ${path.join(dir, 'nope')}\n`,
      )
      const onFile = await runInProcess('list', file)
      expect(onFile.code).toBe(2)
      expect(onFile.stderr).toContain(`${file} is a file, but \`list\` expects a directory of sessions`)
    })
  })

  it('a missing argument', async () => {
    const { code, stderr } = await runInProcess('verify')
    expect(code).toBe(2)
    expect(stderr).toBe('sessiontape verify: missing <file>. Run `sessiontape verify --help`.\n')
  })

  it('reaches the process exit code and stderr of the real executable', async () => {
    await withTempDir(async (dir) => {
      const missing = path.join(dir, 'nope.jsonl')
      expect(await runCli('show', missing)).toEqual({
        code: 2,
        stdout: '',
        stderr: `sessiontape show: no such file: ${missing}\n`,
      })
    })
  })
})
