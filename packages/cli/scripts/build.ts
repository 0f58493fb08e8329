/**
 * Builds what the `sessiontape` bin runs (package.json's `build`, run by prepack):
 * - dist/sessiontape.cjs: the whole CLI — its commands, @sessiontape/recorder and @sessiontape/sessions
 *   from their sources, string-width, proper-lockfile — as one CommonJS file. One file, because a short
 *   command spent more time in Node's module loader (a hundred ES modules) than in its own work; CommonJS,
 *   because on Node 20 only CommonJS-shaped code can be compiled with a V8 code cache (`vm.Script`; see
 *   src/start-from-code-cache.ts). Dynamic `import()`s become `require()`s, so the bundle never needs
 *   the ES module loader.
 * - dist/THIRD-PARTY-LICENSES.txt: the license of every package bundled into it (their licenses ask for
 *   the notice in every copy), from esbuild's list of the bundle's inputs.
 * - dist/start.cjs: what the bin requires to run that bundle from its code cache (CommonJS too: a process
 *   that loads no ES module never starts Node's ES module loader, ~7 ms of a `--version`).
 *
 *   node --import tsx scripts/build.ts [out dir]      (default: the package's dist/)
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build, type BuildOptions, type Metafile } from 'esbuild'

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
  const { metafile } = await build({
    ...common,
    entryPoints: [path.join(packageDir, 'src/main.ts')],
    format: 'cjs',
    supported: { 'dynamic-import': false },
    outfile: path.join(outDir, 'sessiontape.cjs'),
    metafile: true,
  })
  writeFileSync(path.join(outDir, 'THIRD-PARTY-LICENSES.txt'), thirdPartyLicenses(metafile))
  await build({
    ...common,
    entryPoints: [path.join(packageDir, 'src/start-from-code-cache.ts')],
    format: 'cjs',
    outfile: path.join(outDir, 'start.cjs'),
  })
}

/** The license text of each package (from node_modules) among the bundle's inputs, by name and version. */
function thirdPartyLicenses(metafile: Metafile): string {
  const packageDirs = new Set<string>()
  for (const input of Object.keys(metafile.inputs)) {
    const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input.split(path.sep).join('/'))
    if (match !== null) packageDirs.add(path.resolve(match[1]!))
  }
  const sections: string[] = []
  for (const dir of packageDirs) {
    const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
      name: string
      version: string
      license?: string
    }
    const licenseFile = readdirSync(dir).find((name) => /^licen[cs]e(\.|$)/i.test(name))
    const text =
      licenseFile !== undefined && existsSync(path.join(dir, licenseFile))
        ? readFileSync(path.join(dir, licenseFile), 'utf8').trim()
        : `(no license file in the package; its manifest says: ${manifest.license ?? 'nothing'})`
    sections.push(
      `${manifest.name}@${manifest.version} — ${manifest.license ?? 'no license field'}\n\n${text}`,
    )
  }
  sections.sort()
  return (
    'The `sessiontape` CLI bundles these packages into dist/sessiontape.cjs. Their licenses follow.\n\n' +
    sections.join(`\n\n${'-'.repeat(78)}\n\n`) +
    '\n'
  )
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await buildCli(path.resolve(process.argv[2] ?? path.join(packageDir, 'dist')))
}
