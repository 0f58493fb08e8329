/**
 * Bundles the example agent the way the agents we are for ship (Claude Code, Gemini CLI, Qwen Code): one
 * ESM file built by esbuild for Node, every dependency inside it, placed in a folder with no node_modules
 * anywhere above it. A dependency the bundler could not follow then fails at run time, as it would for a
 * user. It bundles the packages' published entry points (dist/, built by the test command), not sources.
 */
import { spawn } from 'node:child_process'
import { isBuiltin } from 'node:module'
import { join } from 'node:path'
import { build, type Metafile } from 'esbuild'
import { agentEntry, AgentRun, examplesDir, type Finished } from './agent-process.js'

/**
 * Every ESM bundle that contains CommonJS code needs a real `require` for Node's built-ins (esbuild's own
 * shim throws "Dynamic require of "fs" is not supported"); this is the root README's banner for that (its
 * alias cannot clash with a `createRequire` imported by the bundled code).
 */
export const ESM_REQUIRE_BANNER =
  "import { createRequire as __bannerRequire } from 'node:module'; const require = __bannerRequire(import.meta.url);"

export interface Bundle {
  readonly file: string
  /** Every module esbuild put into the file, relative to the repository's examples folder. */
  readonly inputs: readonly string[]
  /** What the bundle still imports at run time (only Node built-ins are allowed). */
  readonly runtimeImports: readonly string[]
}

/**
 * Bundles `entry` (default: the example agent) into `outDir/<name>.mjs`. With `fromSource`, the packages'
 * live TypeScript sources (the `@sessiontape/source` condition, what tsx runs) go into the bundle instead
 * of their dist/: the code the unbundled tests run, compiled once instead of by tsx at every start.
 */
export async function bundle(
  outDir: string,
  entry: string | { readonly contents: string } = agentEntry,
  name = 'agent',
  { fromSource = false }: { readonly fromSource?: boolean } = {},
): Promise<Bundle> {
  const file = join(outDir, `${name}.mjs`)
  const result = await build({
    ...(fromSource ? { conditions: ['@sessiontape/source'] } : {}),
    ...(typeof entry === 'string'
      ? { entryPoints: [entry] }
      : { stdin: { contents: entry.contents, resolveDir: examplesDir, loader: 'ts' as const } }),
    absWorkingDir: examplesDir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: file,
    banner: { js: ESM_REQUIRE_BANNER },
    metafile: true,
    logLevel: 'silent',
  })
  const output = Object.values(result.metafile.outputs)[0] as Metafile['outputs'][string]
  return {
    file,
    inputs: Object.keys(result.metafile.inputs),
    runtimeImports: output.imports.filter((entry) => entry.external).map((entry) => entry.path),
  }
}

/** True when every import left in the bundle is a Node built-in. */
export function importsOnlyBuiltins(built: Bundle): boolean {
  return built.runtimeImports.every((path) => isBuiltin(path))
}

/** Starts the bundled agent with plain `node` (no tsx, no conditions), from `cwd`. */
export function startBundledAgent(file: string, args: readonly string[], cwd: string): AgentRun {
  const child = spawn(process.execPath, [file, ...args], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_OPTIONS: '', INIT_CWD: cwd },
  })
  return new AgentRun(child)
}

export async function runBundledAgent(file: string, args: readonly string[], cwd: string): Promise<Finished> {
  return startBundledAgent(file, args, cwd).finished
}
