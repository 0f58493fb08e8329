// Bundled or not, importing the packages does nothing until they are used: no signal or exit listener,
// no patched `fs` (proper-lockfile's graceful-fs patches fs.close when it loads; signal-exit installs
// signal listeners), no global emitter. Using the recorder then loads its dependencies from the bundle.
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { scratchDir } from './helpers/agent-process.js'
import { bundle, importsOnlyBuiltins, type Bundle } from './helpers/bundled-agent.js'

const run = promisify(execFile)

// Snapshot of everything the packages' dependencies are known to touch when loaded.
const PROBE = `
  import fs from 'node:fs'
  const events = ['SIGINT', 'SIGTERM', 'SIGHUP', 'exit', 'beforeExit', 'uncaughtException']
  const snapshot = () => ({
    listeners: events.map((event) => process.listenerCount(event)),
    close: fs.close.toString().length,
    closeSync: fs.closeSync.toString().length,
    emit: process.emit.toString().length,
    globals: Object.getOwnPropertySymbols(globalThis).map(String).sort(),
  })
`

const IMPORT_ONLY = `${PROBE}
  const before = snapshot()
  const recorder = await import('@sessiontape/recorder')
  const fsCache = await import('@sessiontape/fs-cache')
  const shutdown = await import('@sessiontape/shutdown')
  const loaded = [recorder, fsCache, shutdown].map((m) => Object.keys(m).length)
  process.stdout.write(JSON.stringify({ before, after: snapshot(), loaded }))
`

const USE_RECORDER = `${PROBE}
  import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
  import { tmpdir } from 'node:os'
  import { join } from 'node:path'
  import { createRecorder } from '@sessiontape/recorder'
  const dir = mkdtempSync(join(tmpdir(), 'sessiontape-bundle-use-'))
  const recorder = createRecorder({ dir, sessionId: 'used' })
  recorder.record('user', { text: 'hello' })
  await recorder.flush()
  await recorder.close()
  const lines = readFileSync(join(dir, 'used.jsonl'), 'utf8').trim().split('\\n').length
  rmSync(dir, { recursive: true, force: true })
  process.stdout.write(JSON.stringify({ lines }))
`

describe('the packages bundled by esbuild', () => {
  let scratch: Awaited<ReturnType<typeof scratchDir>>
  beforeAll(async () => (scratch = await scratchDir('bundle-import')))
  afterAll(() => scratch.remove())

  it('importing all three touches nothing in the process', async () => {
    const built: Bundle = await bundle(scratch.path, { contents: IMPORT_ONLY }, 'import-only')
    expect(importsOnlyBuiltins(built), built.runtimeImports.join(', ')).toBe(true)
    const { stdout } = await run(process.execPath, [built.file], { cwd: scratch.path })
    const { before, after, loaded } = JSON.parse(stdout) as {
      before: unknown
      after: unknown
      loaded: number[]
    }
    expect(loaded.every((count) => count > 0)).toBe(true)
    expect(after).toEqual(before)
  })

  it('a recorder created from the bundle writes its records (its dependencies load on use)', async () => {
    const built = await bundle(scratch.path, { contents: USE_RECORDER }, 'use-recorder')
    const { stdout } = await run(process.execPath, [built.file], { cwd: scratch.path })
    expect(JSON.parse(stdout)).toEqual({ lines: 1 })
  })
})
