/**
 * The example agent built by each bundler an agent CLI may ship with — esbuild (ESM with the root README's
 * banner, and CJS), rollup + @rollup/plugin-node-resolve + @rollup/plugin-commonjs with default options,
 * webpack 5 (ESM and CommonJS output), vite's SSR build — each run from a folder with no node_modules. It
 * bundles the packages' published entry points (dist/, built by the test command), not their sources.
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
import { build } from 'esbuild'
import { agentEntry, examplesDir } from './agent-process.js'

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

/** The agent as one plain ESM file that imports the packages by name, in `work/` (which resolves them). */
async function plainEntry(work: string): Promise<string> {
  const entry = path.join(work, 'agent-entry.mjs')
  await mkdir(work, { recursive: true })
  // The packages resolve from the examples' own node_modules (their dist/, through `default`).
  await symlink(path.join(examplesDir, 'node_modules'), path.join(work, 'node_modules'), 'dir')
  await build({
    entryPoints: [agentEntry],
    absWorkingDir: examplesDir,
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
  'esbuild-esm' | 'esbuild-cjs' | 'rollup' | 'webpack-esm' | 'webpack-cjs' | 'vite-ssr'

/** The command in the root README's "Bundling" section (its banner is what an ESM bundle needs). */
export async function readmeEsbuildBanner(): Promise<string> {
  const readme = await readFile(path.join(examplesDir, '..', 'README.md'), 'utf8')
  const banner = /--banner:js="([^"]+)"/.exec(readme)?.[1]
  if (banner === undefined) throw new Error('no esbuild --banner:js command in the root README')
  return banner
}

/**
 * Builds the agent with `bundler` into `<scratch>/<bundler>/out/`, then copies that folder to
 * `<scratch>/<bundler>/ship/` (no node_modules anywhere above it). Returns the file to run.
 */
export async function bundleWith(
  bundler: BundlerName,
  scratch: string,
  modules: string,
): Promise<{ file: string; folder: string }> {
  const work = path.join(scratch, bundler)
  const out = path.join(work, 'out')
  const entry = await plainEntry(path.join(work, 'src'))
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
    case 'rollup': {
      const { rollup } = (await import(path.join(modules, 'rollup', 'dist', 'es', 'rollup.js'))) as {
        rollup: (
          options: object,
        ) => Promise<{ write: (o: object) => Promise<unknown>; close: () => Promise<void> }>
      }
      const { nodeResolve } = (await load('@rollup/plugin-node-resolve')) as { nodeResolve: () => object }
      const { default: commonjs } = (await load('@rollup/plugin-commonjs')) as { default: () => object }
      const bundle = await rollup({ input: entry, plugins: [nodeResolve(), commonjs()], onwarn: () => {} })
      await bundle.write({ dir: out, format: 'es', entryFileNames: 'agent.mjs' })
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
