import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { chmod, chown, mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCliWith, type CliResult } from './helpers/cli.js'
import { snapshot, withTemp, writeClaudeSession } from '../../sessions/test/helpers/claude-sessions.js'

const ID = '5e5e5e5e-aaaa-4000-8000-000000000000'
const CWD = '/home/dev/real-project'
const FORGED_CWD = '/forged/by/another/user'
const FORGED_TOKENS = 999_999_999
const isRoot = process.getuid?.() === 0

/** `nobody`'s ids, when this runs as root (a shard forged by another user is then really theirs). */
function nobody(): { uid: number; gid: number } | undefined {
  if (!isRoot) return undefined
  try {
    const uid = Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).trim())
    const gid = Number(execFileSync('id', ['-g', 'nobody'], { encoding: 'utf8' }).trim())
    return { uid, gid }
  } catch {
    return undefined
  }
}

function u32(value: number): Buffer {
  const out = Buffer.alloc(4)
  out.writeUInt32LE(value >>> 0)
  return out
}

/**
 * A shard with its digests forged and its checksums recomputed, as an attacker who read the format would:
 * every session's project is FORGED_CWD and every token count FORGED_TOKENS. (Layout: cache-store.ts.)
 */
function forge(shard: Buffer): Buffer {
  const indexLength = shard.readUInt32LE(8)
  const digestsAt = 12 + indexLength + 8
  const digestsLength = shard.readUInt32LE(digestsAt - 4)
  const digests = JSON.parse(shard.toString('utf8', digestsAt, digestsAt + digestsLength)) as {
    cwd?: string
    usage: Record<string, unknown>
  }[]
  for (const digest of digests) {
    digest.cwd = FORGED_CWD
    for (const key of Object.keys(digest.usage))
      if (typeof digest.usage[key] === 'number') digest.usage[key] = FORGED_TOKENS
  }
  const forged = Buffer.from(JSON.stringify(digests))
  const check = createHash('sha1').update(forged).digest().readUInt32LE(0)
  return Buffer.concat([
    shard.subarray(0, digestsAt - 4),
    u32(forged.length),
    forged,
    u32(check),
    shard.subarray(digestsAt + digestsLength + 4),
  ])
}

async function setUp(root: string): Promise<{ projects: string; cacheDir: string; shards: string[] }> {
  const projects = path.join(root, 'projects')
  await writeClaudeSession(projects, ID, CWD, [{ user: 'where is the pelican', assistant: 'here' }])
  const cacheDir = path.join(root, 'cache')
  // A first run makes the cache (private, ours); the attacker then forges what it wrote.
  const first = await run(cacheDir, 'list', '--json', projects)
  expect(first.code).toBe(0)
  const dir = path.join(cacheDir, 'catalog-v3')
  const shards = (await readdir(dir)).filter((name) => name.endsWith('.bin')).map((n) => path.join(dir, n))
  expect(shards.length).toBeGreaterThan(0)
  for (const shard of shards) await writeFile(shard, forge(await readFile(shard)))
  return { projects, cacheDir, shards }
}

function run(cacheDir: string, ...args: string[]): Promise<CliResult> {
  return runCliWith({ env: { SESSIONTAPE_CACHE_DIR: cacheDir, NO_COLOR: '1' } }, ...args)
}

/** What `list --json` and `search --json` show of the session: its project and its output tokens. */
async function shown(cacheDir: string, projects: string) {
  const list = await run(cacheDir, 'list', '--json', projects)
  const search = await run(cacheDir, 'search', 'pelican', projects, '--json')
  const [row] = JSON.parse(list.stdout) as { cwd?: string; usage: { outputTokens: number } }[]
  const hits = (JSON.parse(search.stdout) as { hits: { cwd?: string }[] }).hits
  return { list, search, cwd: row?.cwd, output: row?.usage.outputTokens, hitCwds: hits.map((h) => h.cwd) }
}

describe('a cache directory others can write is not used: no forged figure, nothing outside it written', () => {
  it('the forged shard is shown when trusted (so the checks below can fail)', async () => {
    await withTemp(async (root) => {
      const { projects, cacheDir } = await setUp(root)
      const seen = await shown(cacheDir, projects)
      expect(seen.cwd).toBe(FORGED_CWD)
      expect(seen.output).toBe(FORGED_TOKENS)
    })
  })

  for (const [what, mode] of [
    ['world-writable', 0o777],
    ['group-writable', 0o770],
    ['group-writable and sticky', 0o1770],
  ] as const) {
    it(`a ${what} cache directory (${mode.toString(8)}) holding a forged shard: bypassed, said once`, async () => {
      await withTemp(async (root) => {
        const { projects, cacheDir, shards } = await setUp(root)
        const owner = nobody()
        // Forged by another user when we can make it so (root: chown to nobody); else by us.
        if (owner !== undefined) for (const shard of shards) await chown(shard, owner.uid, owner.gid)
        await chmod(cacheDir, mode)
        const before = await snapshot(cacheDir)
        const seen = await shown(cacheDir, projects)
        expect(seen.list.code).toBe(0)
        expect(seen.search.code).toBe(0)
        expect(seen.cwd).toBe(CWD)
        expect(seen.output).toBe(10)
        expect(seen.hitCwds).toEqual([CWD])
        for (const result of [seen.list, seen.search]) {
          expect(result.stdout).not.toContain(FORGED_CWD)
          expect(result.stdout).not.toContain(String(FORGED_TOKENS))
          expect(result.stderr.match(/ERR_CACHE_DIR_UNSAFE|is not used/g)).toHaveLength(1)
        }
        expect(seen.search.stderr).toContain('group or others may write to it')
        // Nothing in it was written, renamed or removed.
        expect(await snapshot(cacheDir)).toEqual(before)
      })
    })
  }

  it('a 755 directory of ours is made private (0700) and used; its shards are 0600', async () => {
    await withTemp(async (root) => {
      const projects = path.join(root, 'projects')
      await writeClaudeSession(projects, ID, CWD, [{ user: 'where is the pelican', assistant: 'here' }])
      const cacheDir = path.join(root, 'cache')
      await mkdir(cacheDir, { mode: 0o755 })
      await chmod(cacheDir, 0o755)
      const seen = await shown(cacheDir, projects)
      expect(seen.cwd).toBe(CWD)
      expect(seen.list.stderr).toBe('')
      expect(seen.search.stderr).toBe('')
      // Others could list it before: now they cannot even see which sessions the shards name.
      expect((await stat(cacheDir)).mode & 0o777).toBe(0o700)
      const dir = path.join(cacheDir, 'catalog-v3')
      expect((await stat(dir)).mode & 0o777).toBe(0o700)
      const shards = await readdir(dir)
      expect(shards.length).toBeGreaterThan(0)
      for (const shard of shards) expect((await stat(path.join(dir, shard))).mode & 0o777).toBe(0o600)
    })
  })

  it.skipIf(nobody() === undefined)(
    'a shard owned by another user (nobody) in our private directory is never read',
    async () => {
      await withTemp(async (root) => {
        const { projects, cacheDir, shards } = await setUp(root)
        const owner = nobody()!
        for (const shard of shards) await chown(shard, owner.uid, owner.gid)
        const seen = await shown(cacheDir, projects)
        expect(seen.cwd).toBe(CWD)
        expect(seen.output).toBe(10)
        expect(seen.hitCwds).toEqual([CWD])
        expect(seen.list.stdout).not.toContain(FORGED_CWD)
      })
    },
  )

  for (const linked of ['catalog-v3', 'the cache directory itself'] as const) {
    it(`${linked} as a symbolic link: its target's files stay byte-identical, none added`, async () => {
      await withTemp(async (root) => {
        const projects = path.join(root, 'projects')
        await writeClaudeSession(projects, ID, CWD, [{ user: 'where is the pelican', assistant: 'here' }])
        const target = path.join(root, 'victim')
        await mkdir(target, { mode: 0o700 })
        // Files at the names the catalog writes (and one more), as in the report: 7 shards' names.
        for (let n = 0; n < 7; n++)
          await writeFile(path.join(target, `${String(n).padStart(2, '0')}.bin`), `precious ${n}\n`)
        await writeFile(path.join(target, 'notes.txt'), 'mine\n')
        let cacheDir = path.join(root, 'cache')
        if (linked === 'catalog-v3') {
          await mkdir(cacheDir, { mode: 0o700 })
          await symlink(target, path.join(cacheDir, 'catalog-v3'))
        } else {
          await symlink(target, cacheDir)
          cacheDir = path.join(root, 'cache')
        }
        const before = await snapshot(target)
        const seen = await shown(cacheDir, projects)
        expect(seen.cwd).toBe(CWD)
        expect(seen.hitCwds).toEqual([CWD])
        expect(seen.search.stderr).toContain('it is a symbolic link')
        expect(await snapshot(target)).toEqual(before)
      })
    })
  }
})
