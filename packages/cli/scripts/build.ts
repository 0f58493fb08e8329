/**
 * Builds what the `sessiontape` bin runs (package.json's `build`, run by prepack):
 * - dist/sessiontape.cjs: the whole CLI — its commands, @sessiontape/recorder and @sessiontape/sessions
 *   from their sources, string-width, proper-lockfile — as one CommonJS file. One file, because a short
 *   command spent more time in Node's module loader (a hundred ES modules) than in its own work; CommonJS,
 *   because on Node 20 only CommonJS-shaped code can be compiled with a V8 code cache (`vm.Script`; see
 *   src/start-from-code-cache.ts). Dynamic `import()`s become `require()`s, so the bundle never needs
 *   the ES module loader.
 * - dist/start.cjs: what the bin requires to run that bundle from its code cache (CommonJS too: a process
 *   that loads no ES module never starts Node's ES module loader, ~7 ms of a `--version`).
 *
 *   node --import tsx scripts/build.ts [out dir]      (default: the package's dist/)
 */
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build, type BuildOptions } from 'esbuild'

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/** Writes `sessiontape.cjs` and `start.cjs` into `outDir`. */
export async function buildCli(outDir: string): Promise<void> {
  const common: BuildOptions = {
    bundle: true,
    platform: 'node',
    target: 'node20',
    // The workspace's sources, as the tests run them; the published packages' dist/ is the same code.
    conditions: ['@sessiontape/source'],
    logLevel: 'warning',
  }
  await build({
    ...common,
    entryPoints: [path.join(packageDir, 'src/main.ts')],
    format: 'cjs',
    supported: { 'dynamic-import': false },
    outfile: path.join(outDir, 'sessiontape.cjs'),
  })
  await build({
    ...common,
    entryPoints: [path.join(packageDir, 'src/start-from-code-cache.ts')],
    format: 'cjs',
    outfile: path.join(outDir, 'start.cjs'),
  })
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await buildCli(path.resolve(process.argv[2] ?? path.join(packageDir, 'dist')))
}
