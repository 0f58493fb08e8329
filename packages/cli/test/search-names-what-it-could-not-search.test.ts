import { execFile, execFileSync } from 'node:child_process'
import { chmod, chown, mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { CLI_ARGS, packageDir, runCliWith, type CliResult } from './helpers/cli.js'
import { claudeLines, withTemp } from '../../sessions/test/helpers/claude-sessions.js'

const TOKEN = 'quetzal'
const isRoot = process.getuid?.() === 0

/** Root runs the search as `nobody` (root reads a 000 file); anyone else makes the file 000 and runs it. */
function nobodyIds(): { uid: number; gid: number } | undefined {
  try {
    execFileSync('setpriv', ['--version'])
    const uid = Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).trim())
    const gid = Number(execFileSync('id', ['-g', 'nobody'], { encoding: 'utf8' }).trim())
    return { uid, gid }
  } catch {
    return undefined
  }
}
const nobody = isRoot ? nobodyIds() : undefined
const canTest = !isRoot || nobody !== undefined
if (!canTest) console.warn('skipped: running as root without setpriv or a nobody user to search as')

/** Runs the CLI as the user who must be refused the file: `nobody` under root, else this user. */
function searchAs(cacheDir: string, ...args: string[]): Promise<CliResult> {
  const env = { ...process.env, SESSIONTAPE_CACHE_DIR: cacheDir, NO_COLOR: '1', HOME: cacheDir }
  if (nobody === undefined)
    return runCliWith({ env: { SESSIONTAPE_CACHE_DIR: cacheDir, NO_COLOR: '1' } }, ...args)
  const argv = [
    `--reuid=${nobody.uid}`,
    `--regid=${nobody.gid}`,
    '--clear-groups',
    process.execPath,
    ...CLI_ARGS,
    ...args,
  ]
  return new Promise((resolve) => {
    execFile('setpriv', argv, { cwd: packageDir, env }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null
      resolve({ code, stdout, stderr })
    })
  })
}

/** A tree the searching user can walk, with a readable session and one it may not read. */
async function tree(root: string, readableHolds: boolean) {
  // The test's temp directory is 0700: opened for the walk (the sessions themselves keep their modes).
  await chmod(root, 0o755)
  const project = path.join(root, 'projects', '-home-dev-app')
  await mkdir(project, { recursive: true, mode: 0o755 })
  await chmod(path.join(root, 'projects'), 0o755)
  const readable = path.join(project, 'aaaaaaaa-0000-4000-8000-000000000001.jsonl')
  const secret = path.join(project, 'aaaaaaaa-0000-4000-8000-000000000002.jsonl')
  const text = (holds: boolean) => (holds ? `the ${TOKEN} sings` : 'nothing to see')
  await writeFile(readable, claudeLines('aaaaaaaa-1', '/home/dev/app', [{ user: text(readableHolds) }]), {
    mode: 0o644,
  })
  await writeFile(secret, claudeLines('aaaaaaaa-2', '/home/dev/app', [{ user: text(true) }]))
  await chmod(secret, isRoot ? 0o600 : 0o000)
  const cacheDir = path.join(root, 'cache')
  await mkdir(cacheDir, { mode: 0o700 })
  if (nobody !== undefined) await chown(cacheDir, nobody.uid, nobody.gid)
  return { projects: path.join(root, 'projects'), readable, secret, cacheDir }
}

interface Json {
  total: number
  unsearched: { file: string; line?: number; code: string; reason: string }[]
  hits: { file: string; role: string; line: number; snippet: string }[]
}

describe('search names what it could not search, and then exits 2', () => {
  it.skipIf(!canTest)(
    'a file it may not read, the only one holding the word: named, exit 2, never "No hits"',
    async () => {
      await withTemp(async (root) => {
        const { projects, secret, cacheDir } = await tree(root, false)
        const text = await searchAs(cacheDir, 'search', TOKEN, projects)
        expect(text.code).toBe(2)
        expect(text.stdout).not.toMatch(/^No hits in \d+ session\(s\)\n$/)
        expect(text.stdout).toContain('could not be searched')
        expect(text.stderr).toContain(
          `sessiontape search: not searched: ${secret}: could not be read (EACCES)`,
        )
        const json = await searchAs(cacheDir, 'search', TOKEN, projects, '--json')
        expect(json.code).toBe(2)
        expect((JSON.parse(json.stdout) as Json).unsearched).toEqual([
          { file: secret, code: 'EACCES', reason: 'could not be read (EACCES)' },
        ])
      })
    },
  )

  it.skipIf(!canTest)('with hits elsewhere: the hits, the file named, still exit 2', async () => {
    await withTemp(async (root) => {
      const { projects, readable, secret, cacheDir } = await tree(root, true)
      const json = await searchAs(cacheDir, 'search', TOKEN, projects, '--json')
      expect(json.code).toBe(2)
      const parsed = JSON.parse(json.stdout) as Json
      expect(parsed.hits.map((hit) => hit.file)).toEqual([readable])
      expect(parsed.unsearched.map((u) => [u.file, u.code])).toEqual([[secret, 'EACCES']])
    })
  })

  it.skipIf(!canTest)('a directory it may not read: named with EACCES, exit 2', async () => {
    await withTemp(async (root) => {
      const { projects, secret, cacheDir } = await tree(root, true)
      const closed = path.join(projects, '-home-dev-closed')
      await mkdir(closed, { mode: 0o700 })
      await writeFile(path.join(closed, 'cccccccc-0000-4000-8000-000000000001.jsonl'), 'x\n')
      if (!isRoot) await chmod(closed, 0o000)
      const json = await searchAs(cacheDir, 'search', TOKEN, projects, '--json')
      expect(json.code).toBe(2)
      const { unsearched } = JSON.parse(json.stdout) as Json
      expect(unsearched.map((u) => [u.file, u.code])).toEqual([
        [closed, 'EACCES'],
        [secret, 'EACCES'],
      ])
      if (!isRoot) await chmod(closed, 0o700)
    })
  })

  it('a 17 MB line holding the word is searched in chunks: found, cold and warm; named under --role', async () => {
    await withTemp(async (root) => {
      const project = path.join(root, 'projects', '-home-dev-app')
      await mkdir(project, { recursive: true })
      const file = path.join(project, 'bbbbbbbb-0000-4000-8000-000000000001.jsonl')
      // The word near the end of a 17 MB user message: past the 16 MiB line bound and every 1 MiB chunk's start.
      const long = `${'lorem ipsum '.repeat(Math.ceil(17_000_000 / 12))} the ${TOKEN} at the end`
      await writeFile(
        file,
        claudeLines('bbbbbbbb-1', '/home/dev/app', [{ user: long }, { user: 'short one' }]),
      )
      const projects = path.join(root, 'projects')
      const env = { env: { SESSIONTAPE_CACHE_DIR: path.join(root, 'cache'), NO_COLOR: '1' } }
      for (const pass of ['cold', 'warm']) {
        const result = await runCliWith(env, 'search', TOKEN, projects, '--json')
        expect(result.code, `${pass}: ${result.stderr}`).toBe(0)
        const json = JSON.parse(result.stdout) as Json
        expect(json.unsearched).toEqual([])
        expect(json.hits).toHaveLength(1)
        expect(json.hits[0]).toMatchObject({ file, line: 1, role: 'long-line' })
        expect(json.hits[0]!.snippet).toContain(TOKEN)
      }
      // A role cannot be told of a line that was not parsed: it holds the word, so it is named.
      const byRole = await runCliWith(env, 'search', TOKEN, projects, '--role', 'user', '--json')
      expect(byRole.code).toBe(2)
      expect((JSON.parse(byRole.stdout) as Json).unsearched).toMatchObject([
        { file, line: 1, code: 'ERR_LINE_TOO_LONG' },
      ])
      expect(byRole.stderr).toContain(`not searched: ${file}:1: a line of`)
      // A word the long line does not hold: searched, nothing to name, "No hits".
      const absent = await runCliWith(env, 'search', 'xylophonist', projects)
      expect(absent).toMatchObject({ code: 1, stdout: 'No hits in 1 session(s)\n' })
    })
  })
})
