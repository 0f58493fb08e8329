import { execFile, execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { CLI_ARGS, packageDir, runCliWith } from './helpers/cli.js'
import { withTemp, writeClaudeSession } from '../../sessions/test/helpers/claude-sessions.js'

const ID = '7a7a7a7a-aaaa-4000-8000-000000000000'
// A transcript that tries to clear the screen: its ESC must reach neither the terminal nor the pager raw.
const TEXT = 'the \u001b[2Jpelican sings'

/** util-linux `script` gives the command a pseudo-terminal, as a user's shell would. */
const hasScript = (() => {
  try {
    execFileSync('script', ['--version'])
    return true
  } catch {
    return false
  }
})()
if (!hasScript) console.warn('skipped: no `script` (util-linux) to run the CLI on a terminal')

const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`

/** Runs the CLI on a pseudo-terminal; what it printed there comes back on `script`'s stdout. */
function onTerminal(
  env: NodeJS.ProcessEnv,
  ...args: string[]
): Promise<{ code: number | null; screen: string }> {
  const command = [process.execPath, ...CLI_ARGS, ...args].map(quote).join(' ')
  return new Promise((resolve) => {
    execFile(
      'script',
      ['-qec', command, '/dev/null'],
      { cwd: packageDir, env: { ...process.env, NO_COLOR: '1', ...env } },
      (error, stdout) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null
        resolve({ code, screen: stdout })
      },
    )
  })
}

describe('search pages its hits on a terminal, as git log does', () => {
  it.skipIf(!hasScript)('through $PAGER on a terminal; not with --no-pager, nor into a pipe', async () => {
    await withTemp(async (root) => {
      const projects = path.join(root, 'projects')
      const file = await writeClaudeSession(projects, ID, '/home/dev/app', [{ user: TEXT }])
      const paged = path.join(root, 'paged.txt')
      const env = { SESSIONTAPE_CACHE_DIR: path.join(root, 'cache'), PAGER: `cat > ${quote(paged)}` }

      const viaPager = await onTerminal(env, 'search', 'pelican', projects)
      expect(viaPager.code).toBe(0)
      const text = await readFile(paged, 'utf8')
      expect(text).toContain(`    the ␛[2Jpelican sings\n`)
      expect(text).toContain(`    ↳ ${file}\n`)
      expect(text).toContain('1 hit(s) in 1 session(s) (1 searched)\n')
      expect(text).not.toContain('\u001b')
      // The pager had the hits; the terminal did not get them a second time.
      expect(viaPager.screen).not.toContain('pelican')

      const noPager = await onTerminal(
        { ...env, PAGER: `cat > ${quote(`${paged}.2`)}` },
        'search',
        'pelican',
        projects,
        '--no-pager',
      )
      expect(noPager.code).toBe(0)
      expect(existsSync(`${paged}.2`)).toBe(false)
      expect(noPager.screen).toContain('␛[2Jpelican sings')
      expect(noPager.screen).not.toContain('\u001b[2J')

      const piped = await runCliWith(
        { env: { ...env, PAGER: `cat > ${quote(`${paged}.3`)}` } },
        'search',
        'pelican',
        projects,
      )
      expect(piped.code).toBe(0)
      expect(existsSync(`${paged}.3`)).toBe(false)
      expect(piped.stdout).toContain('␛[2Jpelican sings')
    })
  })
})
