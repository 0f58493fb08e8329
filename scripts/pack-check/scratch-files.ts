/**
 * The scratch project the packed tarballs are installed into, outside the workspace: what a user's
 * project looks like. Each file exercises one way of consuming the packages.
 */

/** An ESM program: records, flushes and reads back a session; uses the other two packages' entry points. */
const ESM = `
import { realpathSync } from 'node:fs'
import { createRecorder, readSession } from '@sessiontape/recorder'
import { createPathCache } from '@sessiontape/fs-cache'
import { createShutdown } from '@sessiontape/shutdown'

const dir = process.argv[2]
const recorder = createRecorder({ dir, sessionId: 'scratch' })
recorder.record('user', { text: 'hello from a scratch install' })
const watermark = await recorder.flush()
await recorder.close()
const { records, problems } = await readSession(recorder.filePath)
const cache = createPathCache()
if ((await cache.realpath(dir)) !== realpathSync(dir)) throw new Error('fs-cache: realpath differs')
if (typeof createShutdown !== 'function') throw new Error('shutdown: no createShutdown')
process.stdout.write(JSON.stringify({ file: recorder.filePath, records: records.length, problems, watermark: watermark.count }))
`

/** CommonJS: require() of the ESM packages (Node 20.19+ / 22.12+: no top-level await anywhere in them). */
const CJS = `
const recorder = require('@sessiontape/recorder')
const fsCache = require('@sessiontape/fs-cache')
const shutdown = require('@sessiontape/shutdown')
const missing = [
  typeof recorder.createRecorder,
  typeof fsCache.createPathCache,
  typeof shutdown.createShutdown,
].filter((type) => type !== 'function')
if (missing.length > 0) throw new Error('require() did not return the named exports')
process.stdout.write('ok')
`

/** A TypeScript consumer (ESM), checked under node16, nodenext and bundler resolution. */
const CONSUMER_TS = `
import { createRecorder, type Recorder, type RecorderOptions } from '@sessiontape/recorder'
import { createPathCache, type PathCache } from '@sessiontape/fs-cache'
import { createShutdown, type ShutdownReport } from '@sessiontape/shutdown'

const options: RecorderOptions = { dir: '/tmp/sessions', fsync: 'never' }
export const recorder: Recorder = createRecorder(options)
export const uuid: string = recorder.record('user', { text: 'hi' })
export const cache: PathCache = createPathCache()
export const shutdown = createShutdown()
export type Report = ShutdownReport
// @ts-expect-error \`fs\` is an @internal test seam: not in the published types
createRecorder({ dir: '/tmp/sessions', fs: {} })
`

/** A CommonJS TypeScript file importing the ESM packages: TS1479 under node16, fine under nodenext. */
const CONSUMER_CTS = `
import { createRecorder, type Recorder } from '@sessiontape/recorder'
export function open(dir: string): Recorder {
  return createRecorder({ dir })
}
`

function tsconfig(module: string, moduleResolution: string, files: readonly string[]): string {
  return `${JSON.stringify(
    {
      compilerOptions: {
        module,
        moduleResolution,
        target: 'ES2022',
        lib: ['ES2023'],
        types: ['node'],
        strict: true,
        noEmit: true,
        skipLibCheck: false,
      },
      files,
    },
    null,
    2,
  )}\n`
}

/** The TypeScript checks: config file → whether it must pass (or fail with exactly this error code). */
export const TYPE_CHECKS: ReadonlyArray<{ readonly config: string; readonly expectError?: string }> = [
  { config: 'tsconfig.node16.json' },
  { config: 'tsconfig.nodenext.json' },
  { config: 'tsconfig.bundler.json' },
  // Documented in the READMEs: a CommonJS TypeScript file under module node16 cannot import an ES module.
  { config: 'tsconfig.node16-cjs.json', expectError: 'TS1479' },
]

export const SCRATCH_FILES: Readonly<Record<string, string>> = {
  'package.json': `${JSON.stringify({ name: 'sessiontape-scratch', private: true, type: 'module' }, null, 2)}\n`,
  'esm.mjs': ESM,
  'cjs.cjs': CJS,
  'consumer.ts': CONSUMER_TS,
  'consumer-cjs.cts': CONSUMER_CTS,
  'tsconfig.node16.json': tsconfig('node16', 'node16', ['consumer.ts']),
  'tsconfig.nodenext.json': tsconfig('nodenext', 'nodenext', ['consumer.ts', 'consumer-cjs.cts']),
  'tsconfig.bundler.json': tsconfig('preserve', 'bundler', ['consumer.ts']),
  'tsconfig.node16-cjs.json': tsconfig('node16', 'node16', ['consumer-cjs.cts']),
}
