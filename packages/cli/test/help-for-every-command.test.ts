import { describe, expect, it } from 'vitest'
import { runCli, runInProcess } from './helpers/cli.js'

describe('the sessiontape CLI explains itself', () => {
  it('prints an overview naming every command', async () => {
    const { code, stdout } = await runCli('--help')
    expect(code).toBe(0)
    for (const command of ['list', 'show', 'verify', 'repair', 'tail'])
      expect(stdout).toContain(`  ${command} `)
  })

  it.for(['list', 'show', 'verify', 'repair', 'tail'])(
    'prints the help of `%s`, with --json and exit codes',
    async (command) => {
      const { code, stdout } = await runInProcess(command, '--help')
      expect(code).toBe(0)
      expect(stdout).toMatch(new RegExp(`^Usage: sessiontape ${command} `))
      expect(stdout).toContain('--json')
      expect(stdout).toContain('Exit codes:')
      expect((await runInProcess('help', command)).stdout).toBe(stdout)
    },
  )

  it('rejects an unknown command or option with exit code 2 and a pointer to --help', async () => {
    const unknown = await runCli('frobnicate')
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('unknown command "frobnicate"')
    const option = await runInProcess('verify', '--frob', 'x.jsonl')
    expect(option.code).toBe(2)
    expect(option.stderr).toContain("Unknown option '--frob'")
    expect(option.stderr).toContain('Run `sessiontape verify --help`.')
  })
})
