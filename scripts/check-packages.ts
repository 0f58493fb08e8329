/**
 * Packs every package the way `pnpm publish` would (prepack builds; publishConfig rewrites exports and the
 * workspace: ranges), then checks the tarballs as a user would meet them:
 *   1. file list and manifest (tarball.ts), `publint`, `@arethetypeswrong/cli`;
 *   2. a plain `npm install` of the tarballs into a scratch project outside the workspace, then an ESM
 *      import, a CommonJS require(), `tsc` under node16, nodenext and bundler, and the `sessiontape` bin;
 *   3. the example agent copied into that project and bundled by each bundler of the examples e2e test
 *      (pack-check/bundlers.ts), each bundle run twice from a folder with no node_modules.
 * Everything happens in a temporary directory that is removed at the end; nothing is written to the repo
 * except the packages' own dist/ (rebuilt by prepack). Needs the npm registry for the packages'
 * dependencies and the bundlers (installed once into a cache in the OS temp directory, shared with the e2e
 * test); where the bundlers cannot be installed, that step says so and is skipped, as the e2e test is. Exit code 0 = every check passed; the last line says how long it took.
 */
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { bundlerLane } from './pack-check/bundlers.js'
import { mustRun, run } from './pack-check/run.js'
import { SCRATCH_FILES, TYPE_CHECKS } from './pack-check/scratch-files.js'
import { inspectTarball } from './pack-check/tarball.js'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const require = createRequire(join(root, 'package.json'))
const pnpmVersion = (require('./package.json') as { packageManager: string }).packageManager.split('@')[1]
const bin = (name: string, file: string): string => join(root, 'node_modules', name, file)
const TSC = bin('typescript', 'bin/tsc')
const PUBLINT = bin('publint', 'src/cli.js')
const ATTW = bin('@arethetypeswrong/cli', 'dist/index.js')
/** The @types/node the scratch project's tsc checks use: the oldest Node we support. */
const TYPES_NODE = '@types/node@^20.19.0'

const failures: string[] = []
function check(label: string, problems: readonly string[], ms?: number): void {
  for (const problem of problems) failures.push(`${label}: ${problem}`)
  const took = ms === undefined ? '' : ` (${(ms / 1000).toFixed(1)} s)`
  const details = problems.length === 0 ? '' : `\n  ${problems.join('\n  ')}`
  console.log(`${problems.length === 0 ? 'ok  ' : 'FAIL'} ${label}${took}${details}`)
}

async function step(label: string, body: () => Promise<readonly string[]>): Promise<void> {
  const start = performance.now()
  let problems: readonly string[]
  try {
    problems = await body()
  } catch (error) {
    problems = [error instanceof Error ? error.message : String(error)]
  }
  check(label, problems, performance.now() - start)
}

/** Every folder under packages/ is a published package: one tarball each. */
const PACKAGE_DIRS = (await readdir(join(root, 'packages'))).sort()

const started = performance.now()
const work = await mkdtemp(join(tmpdir(), 'sessiontape-pack-'))
try {
  const tarballs = join(work, 'tarballs')
  const packStart = performance.now()
  const packOutput = await run(
    'npx',
    [
      '--yes',
      `pnpm@${pnpmVersion}`,
      // Every workspace project, as a maintainer would type it: the examples have no name, so pnpm's pack
      // (which does not read `private`) leaves them out, and the count below says so if that ever changes.
      '-r',
      'pack',
      '--pack-destination',
      tarballs,
    ],
    root,
  )
  if (packOutput.code !== 0) throw new Error(`pnpm pack failed:\n${packOutput.output}`)
  const packed = (await readdir(tarballs)).filter((name) => name.endsWith('.tgz')).sort()
  check(
    'pnpm pack (prepack builds each package)',
    packed.length === PACKAGE_DIRS.length
      ? []
      : [`expected ${PACKAGE_DIRS.length} tarballs (${PACKAGE_DIRS.join(', ')}), got ${packed.join(', ')}`],
    performance.now() - packStart,
  )

  for (const file of packed) {
    const tarball = join(tarballs, file)
    await step(`${file}: files and manifest`, async () => {
      const { manifest, problems } = await inspectTarball(tarball, join(work, 'unpacked', file))
      return manifest.name.startsWith('@sessiontape/')
        ? problems
        : [...problems, `unexpected name ${manifest.name}`]
    })
    await step(`${file}: publint --strict`, async () => {
      const { code, output } = await run(process.execPath, [PUBLINT, 'run', tarball, '--strict'], work)
      return code === 0 ? [] : [output.trim()]
    })
    // esm-only: these packages are ESM by design. CommonJS consumers are checked for real below (require()
    // on Node 20.19+, tsc under nodenext; node16 from CommonJS is the documented TS1479 case).
    await step(`${file}: attw --profile esm-only`, async () => {
      const args = [ATTW, tarball, '--profile', 'esm-only', '--no-definitely-typed', '--format', 'ascii']
      const { code, output } = await run(process.execPath, args, work)
      return code === 0 ? [] : [output.trim()]
    })
  }

  const scratch = join(work, 'scratch')
  await mustRun('mkdir', ['-p', scratch], work)
  for (const [name, contents] of Object.entries(SCRATCH_FILES)) await writeFile(join(scratch, name), contents)
  await step('npm install <tarballs> into a scratch project', async () => {
    const args = ['install', '--no-audit', '--no-fund', '--loglevel=error', '--save-dev', TYPES_NODE]
    await mustRun('npm', [...args, ...packed.map((file) => join(tarballs, file))], scratch)
    return []
  })

  const sessions = join(work, 'sessions')
  await step('ESM import: record, flush, read back', async () => {
    const output = await mustRun(process.execPath, ['esm.mjs', sessions], scratch)
    const result = JSON.parse(output) as { records: number; problems: unknown[]; watermark: number }
    return result.records === 1 && result.watermark === 1 && result.problems.length === 0
      ? []
      : [`unexpected ${output}`]
  })
  await step('CommonJS require()', async () => {
    const output = await mustRun(process.execPath, ['--no-warnings', 'cjs.cjs'], scratch)
    return output === 'ok' ? [] : [output]
  })
  for (const { config, expectError } of TYPE_CHECKS) {
    await step(
      `tsc -p ${config}${expectError === undefined ? '' : ` (expects ${expectError})`}`,
      async () => {
        const { code, output } = await run(process.execPath, [TSC, '-p', config], scratch)
        if (expectError === undefined) return code === 0 ? [] : [output.trim()]
        const codes = [...output.matchAll(/error (TS\d+)/g)].map((match) => match[1])
        return code !== 0 && codes.length > 0 && codes.every((found) => found === expectError)
          ? []
          : [`expected only ${expectError}, got exit ${code}:\n${output.trim()}`]
      },
    )
  }
  await step('sessiontape bin: --help, then verify the ESM run', async () => {
    const sessiontape = join(scratch, 'node_modules', '.bin', 'sessiontape')
    const help = await mustRun(sessiontape, ['--help'], scratch)
    await mustRun(sessiontape, ['verify', join(sessions, 'scratch.jsonl')], scratch)
    return /usage/i.test(help) ? [] : [`--help printed no usage:\n${help}`]
  })

  const lane = await bundlerLane(scratch, work)
  if (lane.skipped !== undefined) console.log(`SKIP every bundler (not installable here): ${lane.skipped}`)
  for (const { label, run: body } of lane.checks) await step(label, body)
} catch (error) {
  failures.push(error instanceof Error ? error.message : String(error))
  console.log(`FAIL ${failures.at(-1)}`)
} finally {
  await rm(work, { recursive: true, force: true })
}

const seconds = ((performance.now() - started) / 1000).toFixed(1)
console.log(
  `packages: ${failures.length === 0 ? 'all checks passed' : `${failures.length} failed`} in ${seconds} s`,
)
process.exitCode = failures.length === 0 ? 0 : 1
