/**
 * The example agent built by each bundler an agent CLI may ship with — esbuild (ESM with the root README's
 * banner, and CJS), rollup + @rollup/plugin-node-resolve + @rollup/plugin-commonjs with default options and
 * again as one file (`output.inlineDynamicImports`, the usual one-file CLI set-up), webpack 5 (ESM and CommonJS output), vite's SSR build — each run from a folder with no node_modules. It
 * bundles the packages' published entry points, not their sources: the workspace's dist/ (built by the test
 * command) in the examples e2e test, the packed tarballs installed with npm in scripts/check-packages.ts.
 * Both use this one module, so the configs and the install cache are the same in both places.
 *
 * esbuild and vite are already in the workspace (vitest runs on vite); rollup and webpack are installed
 * from the npm registry at test time into a cache in the OS temp directory, never into the workspace, so
 * the quick start's install stays as it is. Each bundler's output goes to its own folder; the agent is
 * first compiled from TypeScript to one JS module that imports the packages by name (every bundler then
 * starts from the same plain ESM an agent's own build would hand it).
 */
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { cp, mkdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { readSession, type SessionRecord } from '@sessiontape/recorder'
import { build } from 'esbuild'
import { agentEntry, examplesDir } from './agent-process.js'
import { runBundledAgent } from './bundled-agent.js'

/** Pinned: versions that run on Node 20 (the floor), so the test checks known bundlers. */
export const BUNDLER_PACKAGES = [
  'rollup@4.68.8',
  '@rollup/plugin-node-resolve@16.0.3',
  '@rollup/plugin-commonjs@29.0.3',
  'webpack@5.112.2',
] as const
const CACHE = path.join(
  os.tmpdir(),
  `sessiontape-bundlers-${BUNDLER_PACKAGES.map((p) => p.replace(/[^a-z0-9.]+/gi, '_')).join('-')}`,
)
const INSTALL_TIMEOUT_MS = 300_000

function run(file: string, args: readonly string[], options: { cwd: string; timeout: number }) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(file, [...args], { ...options, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null
      resolve({ code, stdout, stderr })
    })
  })
}

/**
 * The cache's node_modules with rollup and webpack, installed on first use; or why it could not be (no
 * network), for the test to skip with. Installed into a folder of its own, then renamed into place: test
 * files running side by side never see a half-installed cache.
 */
export async function bundlerModules(): Promise<{ modules: string } | { reason: string }> {
  const modules = path.join(CACHE, 'node_modules')
  if (existsSync(path.join(CACHE, 'installed'))) return { modules }
  const staging = `${CACHE}.${process.pid}.${Date.now()}`
  await mkdir(staging, { recursive: true })
  const installed = await run(
    'npm',
    ['install', '--prefix', staging, '--no-save', '--no-audit', '--no-fund', ...BUNDLER_PACKAGES],
    { cwd: staging, timeout: INSTALL_TIMEOUT_MS },
  )
  if (installed.code !== 0) {
    await rm(staging, { recursive: true, force: true })
    const why = (installed.stderr.trim().split('\n').at(-1) ?? '').slice(0, 300)
    return { reason: `could not install ${BUNDLER_PACKAGES.join(' ')} from the npm registry: ${why}` }
  }
  await writeFile(path.join(staging, 'installed'), '')
  try {
    await rename(staging, CACHE)
  } catch {
    // Another test file installed it first: use theirs.
    await rm(staging, { recursive: true, force: true })
  }
  return { modules }
}

/** Where the agent's TypeScript is and where the packages it imports are installed. */
export interface AgentSource {
  /** The agent's `main.ts`. */
  readonly entry: string
  /** A node_modules folder holding `@sessiontape/*` (and their dependencies). */
  readonly nodeModules: string
}

/** The example agent in this repository, importing the workspace packages (their dist/, through `default`). */
export const WORKSPACE_AGENT: AgentSource = {
  entry: agentEntry,
  nodeModules: path.join(examplesDir, 'node_modules'),
}

/** The agent as one plain ESM file that imports the packages by name, in `work/` (which resolves them). */
async function plainEntry(work: string, source: AgentSource): Promise<string> {
  const entry = path.join(work, 'agent-entry.mjs')
  await mkdir(work, { recursive: true })
  await symlink(source.nodeModules, path.join(work, 'node_modules'), 'dir')
  await build({
    entryPoints: [source.entry],
    absWorkingDir: path.dirname(source.entry),
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: entry,
    logLevel: 'silent',
  })
  return entry
}

export type BundlerName =
  'esbuild-esm' | 'esbuild-cjs' | 'rollup' | 'rollup-one-file' | 'webpack-esm' | 'webpack-cjs' | 'vite-ssr'

/** The command in the root README's "Bundling" section (its banner is what an ESM bundle needs). */
export async function readmeEsbuildBanner(): Promise<string> {
  const readme = await readFile(path.join(examplesDir, '..', 'README.md'), 'utf8')
  const banner = /--banner:js="([^"]+)"/.exec(readme)?.[1]
  if (banner === undefined) throw new Error('no esbuild --banner:js command in the root README')
  return banner
}

export const BUNDLERS: readonly BundlerName[] = [
  'esbuild-esm',
  'esbuild-cjs',
  'rollup',
  'rollup-one-file',
  'webpack-esm',
  'webpack-cjs',
  'vite-ssr',
]

/**
 * Builds the agent with `bundler` into `<scratch>/<bundler>/out/`, then copies that folder to
 * `<scratch>/<bundler>/ship/` (no node_modules anywhere above it). Returns the file to run.
 */
export async function bundleWith(
  bundler: BundlerName,
  scratch: string,
  modules: string,
  source: AgentSource = WORKSPACE_AGENT,
): Promise<{ file: string; folder: string }> {
  const work = path.join(scratch, bundler)
  const out = path.join(work, 'out')
  const entry = await plainEntry(path.join(work, 'src'), source)
  const load = (name: string) => import(path.join(modules, name, 'dist', 'es', 'index.js'))
  let main: string
  switch (bundler) {
    case 'esbuild-esm':
    case 'esbuild-cjs': {
      const esm = bundler === 'esbuild-esm'
      main = esm ? 'agent.mjs' : 'agent.cjs'
      await build({
        entryPoints: [entry],
        bundle: true,
        platform: 'node',
        format: esm ? 'esm' : 'cjs',
        outfile: path.join(out, main),
        ...(esm ? { banner: { js: await readmeEsbuildBanner() } } : {}),
        logLevel: 'silent',
      })
      break
    }
    case 'rollup':
    case 'rollup-one-file': {
      const { rollup } = (await import(path.join(modules, 'rollup', 'dist', 'es', 'rollup.js'))) as {
        rollup: (
          options: object,
        ) => Promise<{ write: (o: object) => Promise<unknown>; close: () => Promise<void> }>
      }
      const { nodeResolve } = (await load('@rollup/plugin-node-resolve')) as { nodeResolve: () => object }
      const { default: commonjs } = (await load('@rollup/plugin-commonjs')) as { default: () => object }
      const bundle = await rollup({ input: entry, plugins: [nodeResolve(), commonjs()], onwarn: () => {} })
      // One file: every dynamic import() inlined. A CommonJS module reached that way comes back as a
      // namespace without `default` (its exports are spread onto it), unlike the default chunked output.
      const oneFile = bundler === 'rollup-one-file' ? { inlineDynamicImports: true } : {}
      await bundle.write({ dir: out, format: 'es', entryFileNames: 'agent.mjs', ...oneFile })
      await bundle.close()
      main = 'agent.mjs'
      break
    }
    case 'webpack-esm':
    case 'webpack-cjs': {
      const esm = bundler === 'webpack-esm'
      main = esm ? 'agent.mjs' : 'agent.cjs'
      const { default: webpack } = (await import(path.join(modules, 'webpack', 'lib', 'index.js'))) as {
        default: (config: object, done: (error: Error | null, stats?: WebpackStats) => void) => void
      }
      await new Promise<void>((resolve, reject) =>
        webpack(
          {
            mode: 'production',
            target: 'node',
            entry,
            context: path.dirname(entry),
            optimization: { minimize: false },
            output: {
              path: out,
              filename: main,
              ...(esm ? { module: true, chunkFormat: 'module', library: { type: 'module' } } : {}),
            },
            ...(esm ? { experiments: { outputModule: true } } : {}),
          },
          (error, stats) =>
            error !== null
              ? reject(error)
              : stats?.hasErrors() === true
                ? reject(new Error(stats.toString('errors-only')))
                : resolve(),
        ),
      )
      break
    }
    case 'vite-ssr': {
      const { build: viteBuild } = await import('vite')
      await viteBuild({
        configFile: false,
        logLevel: 'silent',
        root: path.dirname(entry),
        // Everything in the bundle, as for the other bundlers (vite's SSR build leaves dependencies
        // external unless told otherwise).
        ssr: { noExternal: true },
        build: {
          ssr: entry,
          outDir: out,
          emptyOutDir: true,
          rollupOptions: { output: { entryFileNames: 'agent.mjs' } },
        },
      })
      main = 'agent.mjs'
      break
    }
  }
  const folder = path.join(work, 'ship')
  await cp(out, folder, { recursive: true })
  return { file: path.join(folder, main), folder }
}

interface WebpackStats {
  hasErrors(): boolean
  toString(preset: string): string
}

/** Each record hangs off the one before (a `title` is metadata: it hangs off the chain, never a parent). */
function chainProblems(records: readonly SessionRecord[]): string[] {
  const problems: string[] = []
  let parent: string | null = null
  for (const [index, record] of records.entries()) {
    if (record.parentUuid !== parent)
      problems.push(`record ${index} (${record.type}): parentUuid ${record.parentUuid} instead of ${parent}`)
    if (record.type !== 'title') parent = record.uuid
  }
  return problems
}

async function sidecarProblems(metaPath: string, expected: Record<string, unknown>): Promise<string[]> {
  let meta: Record<string, unknown>
  try {
    meta = JSON.parse(await readFile(metaPath, 'utf8')) as Record<string, unknown>
  } catch (error) {
    return [`meta sidecar ${metaPath}: ${error instanceof Error ? error.message : String(error)}`]
  }
  return Object.entries(expected)
    .filter(([field, value]) => meta[field] !== value)
    .map(
      ([field, value]) =>
        `meta sidecar: ${field} is ${JSON.stringify(meta[field])}, expected ${JSON.stringify(value)}`,
    )
}

/**
 * Runs a bundled agent twice from `folder` — a new session, then a resume of it — writing to `dir`, and
 * returns what is wrong (empty = it works as it does unbundled): each run exits 0 with nothing on stderr;
 * the transcript reads back without a problem, the second run appended to the first one's records
 * unchanged, every record hangs off the one before; the meta sidecar itself is on disk and counts every
 * record (listSessions would rebuild a missing one in memory and hide its absence).
 */
export async function newSessionThenResumeProblems(
  file: string,
  folder: string,
  dir: string,
): Promise<string[]> {
  const transcript = path.join(dir, 'bundled.jsonl')
  const metaPath = path.join(dir, '.sessiontape', 'bundled.meta.json')
  const runs = [
    ['new session', ['--dir', dir, '--session', 'bundled', '--turns', '2']],
    ['resume', ['--dir', dir, '--resume', 'bundled', '--turns', '2']],
  ] as const
  let before: readonly SessionRecord[] = []
  for (const [label, args] of runs) {
    const { code, signal, stderr } = await runBundledAgent(file, args, folder)
    if (code !== 0 || stderr !== '')
      return [`${label}: exit ${code ?? signal}, stderr: ${stderr === '' ? '(empty)' : stderr.trim()}`]
    const { records, problems } = await readSession(transcript)
    if (problems.length > 0) return [`${label}: the transcript has problems: ${JSON.stringify(problems)}`]
    if (records.length <= before.length)
      return [`${label}: ${records.length} records after a run that started with ${before.length}`]
    if (JSON.stringify(records.slice(0, before.length)) !== JSON.stringify(before))
      return [`${label}: the records of the first run changed`]
    const found = [
      ...chainProblems(records),
      ...(await sidecarProblems(metaPath, {
        sessionId: 'bundled',
        recordCount: records.length,
        lastUuid: records.at(-1)?.uuid,
      })),
    ]
    if (found.length > 0) return found.map((problem) => `${label}: ${problem}`)
    before = records
  }
  return []
}
