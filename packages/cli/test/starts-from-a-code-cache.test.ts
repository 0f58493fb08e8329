import { execFile, execFileSync } from 'node:child_process'
import { promisify } from 'node:util'
import { createHash } from 'node:crypto'
import {
  chmod,
  copyFile,
  cp,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  utimes,
  writeFile,
} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCli } from '../scripts/build.js'
import { packageDir } from './helpers/cli.js'

const execFileAsync = promisify(execFile)

// The bin as it ships: dist/ built by the package's own build, bin/ beside it, run as `node <bin>`.
let work = ''
let bin = ''
let cacheDir = ''
let sessions = ''

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'sessiontape-code-cache-'))
  await buildCli(path.join(work, 'cli/dist'))
  await mkdir(path.join(work, 'cli/bin'))
  bin = path.join(work, 'cli/bin/sessiontape.cjs')
  await copyFile(path.join(packageDir, 'bin/sessiontape.cjs'), bin)
  sessions = path.join(work, 'sessions')
  await mkdir(sessions)
}, 60_000)

afterAll(async () => {
  if (work !== '') await rm(work, { recursive: true, force: true })
})

let runs = 0
/** A fresh cache directory for each test. */
async function freshCacheDir(): Promise<string> {
  cacheDir = path.join(work, `cache-${++runs}`)
  await mkdir(cacheDir)
  return cacheDir
}

function run(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { env: { ...process.env, SESSIONTAPE_CACHE_DIR: cacheDir, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null
        resolve({ code, stdout, stderr })
      },
    )
  })
}

const codeCacheDir = (): string => path.join(cacheDir, 'code-cache')
const caches = async (): Promise<string[]> => (await readdir(codeCacheDir()).catch(() => [])).sort()

/** Whether `bytes` is a cache file as the format says: magic, SHA-1 of the rest, state byte, payload. */
function wellFormed(bytes: Buffer): boolean {
  return (
    bytes.subarray(0, 8).toString('latin1') === 'STCODE2\n' &&
    bytes.length > 29 &&
    [0, 1].includes(bytes[28]!) &&
    createHash('sha1').update(bytes.subarray(28)).digest().equals(bytes.subarray(8, 28))
  )
}

/** The state byte: 0 written by a run that had no cache to use, 1 checked by a run that used it. */
const stateOf = (bytes: Buffer): number => bytes[28]!

/**
 * In a fresh cache directory, `search`'s cache as `search --help` leaves it: it compiles little, and the
 * second run checks it, so the cache is small and checked. Returns its path and bytes.
 */
async function smallCheckedSearchCache(): Promise<{ file: string; small: Buffer }> {
  await freshCacheDir()
  await run(['search', '--help'])
  await run(['search', '--help'])
  const [name] = await caches()
  const file = path.join(codeCacheDir(), name!)
  const small = await readFile(file)
  expect(stateOf(small)).toBe(1)
  return { file, small }
}

describe('the sessiontape bin starts from a V8 code cache in the cache directory', () => {
  it('the first run writes its command’s cache; the next run reads it, checks it once; later runs leave it as it was', async () => {
    await freshCacheDir()
    const first = await run(['list', sessions, '--json'])
    expect(first).toMatchObject({ code: 0, stderr: '' })
    const names = await caches()
    expect(names).toHaveLength(1)
    expect(names[0]).toMatch(/^[0-9a-f]{16}\.list\.bin$/)
    const file = path.join(codeCacheDir(), names[0]!)
    expect(wellFormed(await readFile(file))).toBe(true)
    expect(stateOf(await readFile(file))).toBe(0)

    // The first run that uses it writes it again as checked (with what that run compiled).
    const second = await run(['list', sessions, '--json'])
    expect(second).toEqual(first)
    const bytes = await readFile(file)
    expect(wellFormed(bytes)).toBe(true)
    expect(stateOf(bytes)).toBe(1)
    const { mtimeMs } = await stat(file)

    // Checked, accepted by V8: the runs after it neither make nor write a cache.
    const third = await run(['list', sessions, '--json'])
    expect(third).toEqual(first)
    expect(await caches()).toEqual(names)
    expect((await readFile(file)).equals(bytes)).toBe(true)
    expect((await stat(file)).mtimeMs).toBe(mtimeMs)

    // Another command has a cache of its own (it compiles other functions).
    const version = await run(['--version'])
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/)
    expect(await caches()).toEqual([names[0], names[0]!.replace('.list.', '.other.')].sort())
  })

  it('a cache made by a run that compiled little is replaced by a later run that compiles more, then kept', async () => {
    await freshCacheDir()
    expect((await run(['search', '--help'])).code).toBe(0)
    const [name] = await caches()
    const file = path.join(codeCacheDir(), name!)
    const small = (await stat(file)).size
    // A search (nothing found: exit 1) compiles the walk, the catalog and the index besides the options.
    expect((await run(['search', 'zebracornflux', sessions, '--json'])).code).toBe(1)
    const grown = await readFile(file)
    expect(grown.length).toBeGreaterThan(small + 16 * 1024)
    expect(wellFormed(grown)).toBe(true)
    expect((await run(['search', 'zebracornflux', sessions, '--json'])).code).toBe(1)
    expect((await readFile(file)).equals(grown)).toBe(true)
    expect(await caches()).toEqual([name])
  })

  it('a checked cache is not checked again for a day: then a run that compiled more writes it again', async () => {
    const { file, small } = await smallCheckedSearchCache()
    // A search compiles much more, but the cache was checked today: the run uses it and leaves it.
    expect((await run(['search', 'zebracornflux', sessions, '--json'])).code).toBe(1)
    expect((await readFile(file)).equals(small)).toBe(true)
    // Checked two days ago: the next search checks it, and writes it again with what it compiled.
    const twoDaysAgo = Date.now() / 1000 - 2 * 24 * 3600
    await utimes(file, twoDaysAgo, twoDaysAgo)
    expect((await run(['search', 'zebracornflux', sessions, '--json'])).code).toBe(1)
    const grown = await readFile(file)
    expect(grown.length).toBeGreaterThan(small.length + 16 * 1024)
    expect(wellFormed(grown)).toBe(true)
    expect(stateOf(grown)).toBe(1)
    // A check that finds nothing more to keep marks the cache checked (its mtime), and writes nothing.
    await utimes(file, twoDaysAgo, twoDaysAgo)
    const { ino } = await stat(file)
    expect((await run(['search', 'zebracornflux', sessions, '--json'])).code).toBe(1)
    expect((await readFile(file)).equals(grown)).toBe(true)
    expect((await stat(file)).ino).toBe(ino)
    expect((await stat(file)).mtimeMs).toBeGreaterThan(Date.now() - 60_000)
  })

  it('a checked cache whose time is in the future (a clock that was wrong) is checked by the next run', async () => {
    const { file, small } = await smallCheckedSearchCache()
    const inTwoDays = Date.now() / 1000 + 2 * 24 * 3600
    await utimes(file, inTwoDays, inTwoDays)
    expect((await run(['search', 'zebracornflux', sessions, '--json'])).code).toBe(1)
    const grown = await readFile(file)
    expect(grown.length).toBeGreaterThan(small.length + 16 * 1024)
    expect((await stat(file)).mtimeMs).toBeLessThan(Date.now() + 60_000)
  })

  it('a damaged cache, or one V8 refuses, is not run: the command runs as without one and the cache is written again', async () => {
    await freshCacheDir()
    const clean = await run(['list', sessions, '--json'])
    const [name] = await caches()
    const file = path.join(codeCacheDir(), name!)

    // A flipped byte: the digest no longer matches, V8 never sees the bytes.
    const damaged = await readFile(file)
    damaged.writeUInt8(damaged.readUInt8(damaged.length - 1) ^ 0xff, damaged.length - 1)
    await writeFile(file, damaged)
    expect(await run(['list', sessions, '--json'])).toEqual(clean)
    const rewritten = await readFile(file)
    expect(wellFormed(rewritten)).toBe(true)
    expect(rewritten.equals(damaged)).toBe(false)

    // Well-formed to us, but not a code cache: V8 rejects it, and it is replaced.
    // A state byte (checked), then bytes that are not V8's.
    const junk = Buffer.from('\x01not a code cache', 'latin1')
    const digest = createHash('sha1').update(junk).digest()
    await writeFile(file, Buffer.concat([Buffer.from('STCODE2\n'), digest, junk]))
    expect(await run(['list', sessions, '--json'])).toEqual(clean)
    const replaced = await readFile(file)
    expect(wellFormed(replaced)).toBe(true)
    expect(replaced.length).toBeGreaterThan(1000)
  })

  it('a FIFO at the cache’s path does not hang the start, and is left as it is', async () => {
    await freshCacheDir()
    await run(['--version'])
    const [name] = await caches()
    const file = path.join(codeCacheDir(), name!)
    await rm(file)
    execFileSync('mkfifo', [file])
    const result = await run(['--version'])
    expect(result.code).toBe(0)
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/)
    expect((await stat(file)).isFIFO()).toBe(true)
    expect(await caches()).toEqual([name])
  })

  it('a run that fails leaves no cache; SESSIONTAPE_DISABLE_CODE_CACHE=1 reads and writes none', async () => {
    await freshCacheDir()
    const mistyped = await run(['lsit'])
    expect(mistyped.code).toBe(2)
    expect(await caches()).toEqual([])

    const off = await run(['list', sessions, '--json'], { SESSIONTAPE_DISABLE_CODE_CACHE: '1' })
    expect(off).toMatchObject({ code: 0, stderr: '' })
    expect(await caches()).toEqual([])
  })

  it('keeps at most 32 caches, removing the oldest first, and removes nothing it did not name', async () => {
    await freshCacheDir()
    await mkdir(codeCacheDir(), { mode: 0o700 })
    const old = Array.from({ length: 40 }, (_, i) => `${String(i).padStart(16, '0')}.list.bin`)
    for (const [i, name] of old.entries()) {
      const file = path.join(codeCacheDir(), name)
      await writeFile(file, 'an older build’s cache')
      await utimes(file, 1_600_000_000 + i, 1_600_000_000 + i)
    }
    // Not ours to remove: a file of someone else's, and a directory with a name like ours (older than all).
    await writeFile(path.join(codeCacheDir(), 'user-01.bin'), 'not a cache of ours')
    await utimes(path.join(codeCacheDir(), 'user-01.bin'), 1_500_000_000, 1_500_000_000)
    await mkdir(path.join(codeCacheDir(), 'ffffffffffffffff.other.bin'))
    await utimes(path.join(codeCacheDir(), 'ffffffffffffffff.other.bin'), 1_500_000_000, 1_500_000_000)
    // Temporary files of ours: one left by a run that died an hour ago (removed), one being written now (kept).
    const stale = `${old[0]}.0123456789ab.tmp`
    const fresh = `${old[1]}.ba9876543210.tmp`
    await writeFile(path.join(codeCacheDir(), stale), 'half')
    await utimes(path.join(codeCacheDir(), stale), Date.now() / 1000 - 3600, Date.now() / 1000 - 3600)
    await writeFile(path.join(codeCacheDir(), fresh), 'half')

    expect((await run(['--version'])).code).toBe(0)
    const left = await caches()
    const ownCaches = left.filter((name) => /^[0-9a-f]{16}\.[a-z]+\.bin$/.test(name))
    expect(ownCaches.filter((name) => name !== 'ffffffffffffffff.other.bin')).toHaveLength(32)
    expect(ownCaches.some((name) => name.endsWith('.other.bin') && !old.includes(name))).toBe(true)
    // The 9 oldest went (40 + 1 new − 32): the newest 31 of the old ones are kept.
    expect(left.filter((name) => old.includes(name))).toEqual(old.slice(9))
    expect(left).toContain('user-01.bin')
    expect((await stat(path.join(codeCacheDir(), 'ffffffffffffffff.other.bin'))).isDirectory()).toBe(true)
    expect(left).not.toContain(stale)
    expect(left).toContain(fresh)

    // The directory named like a cache does not stop the count: a second run keeps it at 32.
    expect((await run(['list', sessions, '--json'])).code).toBe(0)
    const again = (await caches()).filter(
      (name) => /^[0-9a-f]{16}\.[a-z]+\.bin$/.test(name) && name !== 'ffffffffffffffff.other.bin',
    )
    expect(again).toHaveLength(32)
  })

  it('a new build of the same length, installed with the same mtime in the same inode, does not take the old cache', async () => {
    await freshCacheDir()
    // A copy of the built CLI, so the other tests keep theirs.
    const copy = path.join(work, 'cli-copy')
    await mkdir(path.join(copy, 'bin'), { recursive: true })
    await cp(path.join(work, 'cli/dist'), path.join(copy, 'dist'), { recursive: true })
    await copyFile(bin, path.join(copy, 'bin/sessiontape.cjs'))
    const bundle = path.join(copy, 'dist/sessiontape.cjs')
    const version = async () =>
      (
        await execFileAsync(process.execPath, [path.join(copy, 'bin/sessiontape.cjs'), '--version'], {
          env: { ...process.env, SESSIONTAPE_CACHE_DIR: cacheDir },
        })
      ).stdout.trim()
    // Installers that fix every file's mtime (Nix gives them 1) make an upgrade look the same to stat.
    const FIXED_MTIME = 1
    await utimes(bundle, FIXED_MTIME, FIXED_MTIME)
    const before = await version()
    expect(await caches()).toHaveLength(1)
    // What an upgrade from 0.1.0 to 0.1.1 can look like to stat: the same length, the same mtime, and here
    // the same inode (rewritten in place).
    const { ino } = await stat(bundle)
    const text = await readFile(bundle, 'latin1')
    const bumped = `9${before.slice(1)}`
    expect(text.split(`version: "${before}"`)).toHaveLength(2)
    await writeFile(bundle, text.replace(`version: "${before}"`, `version: "${bumped}"`), 'latin1')
    await utimes(bundle, FIXED_MTIME, FIXED_MTIME)
    expect((await stat(bundle)).ino).toBe(ino)
    expect(await version()).toBe(bumped)
    expect(await caches()).toHaveLength(2)
  })

  it('runs under other Node flags keep a cache of their own instead of rewriting one in turns', async () => {
    await freshCacheDir()
    const withFlag = () =>
      execFileAsync(process.execPath, ['--max-old-space-size=300', bin, '--version'], {
        env: { ...process.env, SESSIONTAPE_CACHE_DIR: cacheDir },
      })
    // Written, then checked by the run after it: from then on, runs leave it as it is.
    await run(['--version'])
    await run(['--version'])
    const [plain] = await caches()
    const plainBytes = await readFile(path.join(codeCacheDir(), plain!))
    await withFlag()
    expect(await caches()).toHaveLength(2)
    await run(['--version'])
    await withFlag()
    expect(await caches()).toHaveLength(2)
    expect((await readFile(path.join(codeCacheDir(), plain!))).equals(plainBytes)).toBe(true)
  })

  it('runs only a cache this user wrote and no one else can change: not one in a shared directory or file', async () => {
    // A cache made from other code of the same length (a build whose version string differs) and put at
    // the path of ours: V8 checks only the length, so it would run that code.
    const planter = path.join(work, 'cli-planter')
    await mkdir(path.join(planter, 'bin'), { recursive: true })
    await cp(path.join(work, 'cli/dist'), path.join(planter, 'dist'), { recursive: true })
    await copyFile(bin, path.join(planter, 'bin/sessiontape.cjs'))
    const plantedBundle = path.join(planter, 'dist/sessiontape.cjs')
    const real = (await run(['--version'])).stdout.trim()
    const text = await readFile(plantedBundle, 'latin1')
    await writeFile(
      plantedBundle,
      text.replace(`version: "${real}"`, `version: "6${real.slice(1)}"`),
      'latin1',
    )
    const plantCache = path.join(work, 'cache-planter')
    await execFileAsync(process.execPath, [path.join(planter, 'bin/sessiontape.cjs'), '--version'], {
      env: { ...process.env, SESSIONTAPE_CACHE_DIR: plantCache },
    })
    const [plantedName] = await readdir(path.join(plantCache, 'code-cache'))
    const planted = await readFile(path.join(plantCache, 'code-cache', plantedName!))

    await freshCacheDir()
    await run(['--version'])
    const [name] = await caches()
    const file = path.join(codeCacheDir(), name!)
    await writeFile(file, planted)
    await chmod(file, 0o600)
    // Ours in every way (this user's, private): it runs — the planted code is what a check must keep out.
    expect((await run(['--version'])).stdout.trim()).toBe(`6${real.slice(1)}`)
    // Writable by others: not run, and not written again (its directory is still ours; the file is not
    // trusted, so the run made a new one).
    await writeFile(file, planted)
    await chmod(file, 0o666)
    expect((await run(['--version'])).stdout.trim()).toBe(real)
    // In a directory others can write to: not read, and nothing written there.
    await writeFile(file, planted)
    await chmod(file, 0o600)
    await chmod(codeCacheDir(), 0o777)
    expect((await run(['--version'])).stdout.trim()).toBe(real)
    expect((await readFile(file)).equals(planted)).toBe(true)
  })

  it('a cache directory that cannot be made does not stop the command', async () => {
    cacheDir = path.join(work, 'not-a-directory')
    await writeFile(cacheDir, '')
    const result = await run(['--version'])
    expect(result.code).toBe(0)
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/)
    expect(result.stderr).toBe('')
  })
})
