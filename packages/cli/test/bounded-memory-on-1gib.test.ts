import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { existsSync } from 'node:fs'
import { packageDir } from './helpers/cli.js'
import { writeRandomFile, writeValidTranscript } from '../../recorder/test/helpers/big-files.js'

/**
 * Skipped by default: it writes 2 GiB to the temp directory and takes minutes. Run it, after
 * `npx --yes pnpm@10.34.8 build` (it measures the built bin, what ships, not tsx), with
 *   SESSIONTAPE_BIG_TESTS=1 npx vitest run --project cli bounded-memory-on-1gib
 * (SESSIONTAPE_BIG_GIB=<n> changes the size). Each CLI run is a child process whose peak RSS is read
 * with `process.resourceUsage().maxRSS` from a preloaded module; the bound is 256 MB.
 */
const ENABLED = process.env.SESSIONTAPE_BIG_TESTS === '1'
const GIB = Number(process.env.SESSIONTAPE_BIG_GIB ?? '1')
const BYTES = Math.round(GIB * 1024 * 1024 * 1024)
const MAX_RSS_BYTES = 256 * 1024 * 1024
// Preloaded into each CLI child: prints its peak RSS (KiB) on stderr at exit, so the test can hold the CLI
// to its bound without instrumenting the CLI itself.
const preload = `data:text/javascript,${encodeURIComponent(
  'process.on("exit", () => process.stderr.write(`max-rss-kib=${process.resourceUsage().maxRSS}\\n`))',
)}`
const BIN = path.join(packageDir, 'bin/sessiontape.cjs')

/** Runs the CLI with its output to /dev/null (a 1 GiB `show` must not be buffered by the test). */
async function peakRss(...args: string[]): Promise<{ code: number | null; rss: number }> {
  const child = spawn(process.execPath, ['--import', preload, BIN, ...args], {
    cwd: packageDir,
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const [code] = (await once(child, 'exit')) as [number | null]
  const kib = /max-rss-kib=(\d+)/.exec(stderr)
  expect(kib, stderr).not.toBeNull()
  return { code, rss: Number(kib![1]) * 1024 }
}

describe.skipIf(!ENABLED)(`the CLI runs in ≤ 256 MB on ${GIB} GiB inputs`, () => {
  let dir = ''
  let garbage = ''
  let valid = ''
  beforeAll(async () => {
    if (!existsSync(path.join(packageDir, 'dist/sessiontape.cjs'))) {
      throw new Error('build first: npx --yes pnpm@10.34.8 build (this test measures the built bin)')
    }
    dir = await mkdtemp(path.join(os.tmpdir(), 'sessiontape-big-'))
    garbage = path.join(dir, 'garbage.jsonl')
    valid = path.join(dir, 'valid.jsonl')
    await writeRandomFile(garbage, BYTES)
    await writeValidTranscript(valid, BYTES)
  }, 600_000)
  afterAll(async () => {
    if (dir !== '') await rm(dir, { recursive: true, force: true })
  })

  it.for([
    { args: () => ['verify', garbage], code: 1 },
    { args: () => ['repair', '--dry-run', garbage], code: 3 },
    { args: () => ['show', garbage], code: 0 },
    { args: () => ['tail', '-n', '20', garbage], code: 0 },
    { args: () => ['verify', valid], code: 0 },
    { args: () => ['repair', '--dry-run', valid], code: 0 },
    { args: () => ['tail', '-n', '20', valid], code: 0 },
    { args: () => ['show', valid], code: 0 },
    { args: () => ['show', '--json', valid], code: 0 },
  ])('$args.0 $args.1', { timeout: 1_200_000 }, async ({ args, code }) => {
    const result = await peakRss(...args())
    process.stderr.write(`${args().join(' ')}: peak RSS ${(result.rss / 1024 / 1024).toFixed(0)} MiB\n`)
    expect(result.code).toBe(code)
    expect(result.rss).toBeLessThanOrEqual(MAX_RSS_BYTES)
  })
})
