// Agent CLIs ship as bundles, built by whichever bundler their authors chose. Built by each common one with
// its default options and run from a folder with no node_modules, the example agent must work exactly as it
// does unbundled — a new session, then a resume of it — with the lazily loaded lock (proper-lockfile)
// bundled and working, the meta sidecar written, and nothing on stderr (before the fix: "Identifier
// 'createRequire' has already been declared" with the README's esbuild banner, "__filename is not defined"
// for the sidecar in ESM bundles, "Cannot find module 'write-file-atomic'" from webpack's CommonJS output).
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { readSession, type SessionRecord } from '@sessiontape/recorder'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { scratchDir } from './helpers/agent-process.js'
import { runBundledAgent } from './helpers/bundled-agent.js'
import { bundleWith, bundlerModules, type BundlerName } from './helpers/bundlers.js'

const BUNDLERS: readonly BundlerName[] = [
  'esbuild-esm',
  'esbuild-cjs',
  'rollup',
  'webpack-esm',
  'webpack-cjs',
  'vite-ssr',
]

/** Each record hangs off the one before (a `title` is metadata: it hangs off the chain, never a parent). */
function expectUnbrokenChain(records: readonly SessionRecord[]): void {
  let parent: string | null = null
  for (const [index, record] of records.entries()) {
    expect(record.parentUuid, `record ${index} (${record.type})`).toBe(parent)
    if (record.type !== 'title') parent = record.uuid
  }
}

describe('the example agent bundled by every common bundler records, then resumes, from a bare folder', () => {
  let scratch: Awaited<ReturnType<typeof scratchDir>>
  let modules: string | undefined
  let skipReason = ''
  beforeAll(async () => {
    scratch = await scratchDir('bundlers')
    const installed = await bundlerModules()
    if ('modules' in installed) modules = installed.modules
    else skipReason = installed.reason
  })
  afterAll(() => scratch.remove())

  it.for(BUNDLERS)('%s', async (bundler, context) => {
    if (modules === undefined) {
      context.skip(`rollup and webpack could not be installed: ${skipReason}`)
      return
    }
    const { file, folder } = await bundleWith(bundler, scratch.path, modules)
    const dir = join(scratch.path, bundler, 'sessions')
    const metaPath = join(dir, '.sessiontape', 'bundled.meta.json')
    const first = await runBundledAgent(file, ['--dir', dir, '--session', 'bundled', '--turns', '2'], folder)
    expect({ code: first.code, stderr: first.stderr }).toEqual({ code: 0, stderr: '' })
    const afterFirst = await readSession(join(dir, 'bundled.jsonl'))
    expect(afterFirst.problems).toEqual([])
    // The sidecar itself (listSessions would rebuild a missing one in memory and hide its absence).
    expect(JSON.parse(await readFile(metaPath, 'utf8'))).toMatchObject({
      sessionId: 'bundled',
      recordCount: afterFirst.records.length,
    })

    const second = await runBundledAgent(file, ['--dir', dir, '--resume', 'bundled', '--turns', '2'], folder)
    expect({ code: second.code, stderr: second.stderr }).toEqual({ code: 0, stderr: '' })
    const { records, problems } = await readSession(join(dir, 'bundled.jsonl'))
    expect(problems).toEqual([])
    expect(records.length).toBeGreaterThan(afterFirst.records.length)
    expect(records.slice(0, afterFirst.records.length)).toEqual(afterFirst.records)
    expectUnbrokenChain(records)
    expect(JSON.parse(await readFile(metaPath, 'utf8'))).toMatchObject({
      sessionId: 'bundled',
      recordCount: records.length,
      lastUuid: records.at(-1)?.uuid,
    })
  })
})
