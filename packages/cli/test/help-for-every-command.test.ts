import { describe, expect, it } from 'vitest'
import { runCli, runInProcess } from './helpers/cli.js'

describe('the sessiontape CLI explains itself', () => {
  it('prints an overview naming every command', async () => {
    const { code, stdout } = await runCli('--help')
    expect(code).toBe(0)
    for (const command of ['list', 'show', 'verify', 'repair', 'tail', 'usage', 'export', 'view', 'search'])
      expect(stdout).toContain(`  ${command} `)
  })

  it("names, in the overview's exit codes, every command that can exit 1 (a script reads the overview)", async () => {
    const overview = (await runCli('--help')).stdout
    const exitCodes = overview.slice(overview.indexOf('Exit codes:')).replace(/\s+/g, ' ')
    const exitingOne: string[] = []
    for (const command of ['list', 'show', 'verify', 'repair', 'tail', 'usage', 'export', 'view', 'search']) {
      const own = (await runInProcess(command, '--help')).stdout
      if (/Exit codes:.*[:,] 1 /s.test(own)) exitingOne.push(command)
    }
    expect(exitingOne).toEqual(['verify', 'repair', 'search'])
    for (const command of exitingOne) expect(exitCodes).toContain(`(${command})`)
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

  it.for(['list', 'show', 'verify', 'repair', 'tail'])(
    'lines up the option column of `%s` (every row, --format and --help included)',
    async (command) => {
      const { stdout } = await runInProcess(command, '--help')
      const options = stdout.slice(stdout.indexOf('\nOptions:\n') + 10, stdout.indexOf('\n\nExit codes:'))
      const rows = options.split('\n')
      // A row: two spaces, the option, at least two spaces, its text; a continuation: spaces, then text.
      const columns = rows.map((row) => (/^( {2}-\S.*? {2,}|\s+)\S/.exec(row)?.[1] ?? '').length)
      expect(new Set(columns).size).toBe(1)
      expect(columns[0]).toBeGreaterThan(2)
      expect(rows.filter((row) => row.startsWith('  -')).map((row) => row.split(/ {2,}/)[1])).toContain(
        '--json',
      )
      if (command !== 'repair') expect(options).toContain('  --format <f>')
      expect(options).toMatch(/^ {2}-h, --help {2,}show this help$/m)
      for (const row of rows) expect(row.length).toBeLessThanOrEqual(100)
    },
  )

  it('accepts exactly the options its help lists (list has no --no-save)', async () => {
    const { stdout } = await runInProcess('list', '--help')
    expect(stdout).not.toContain('--no-save')
    const rejected = await runInProcess('list', '--no-save', '.')
    expect(rejected.code).toBe(2)
    expect(rejected.stderr).toContain("Unknown option '--no-save'")
  })

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
