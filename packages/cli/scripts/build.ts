/**
 * Builds what the `sessiontape` bin runs (package.json's `build`, run by prepack):
 * - dist/sessiontape.cjs: the whole CLI — its commands, @sessiontape/recorder and @sessiontape/sessions
 *   from their sources, string-width, proper-lockfile — as one CommonJS file. One file, because a short
 *   command spent more time in Node's module loader (a hundred ES modules) than in its own work; CommonJS,
 *   because on Node 20 only CommonJS-shaped code can be compiled with a V8 code cache (`vm.Script`; see
 *   src/start-from-code-cache.ts). Dynamic `import()`s become `require()`s, so the bundle never needs
 *   the ES module loader.
 * - dist/THIRD-PARTY-NOTICES.txt: the license of every package bundled into it (their licenses ask for
 *   the notice in every copy), from esbuild's list of the bundle's inputs.
 * - dist/start.cjs: what the bin requires to run that bundle from its code cache (CommonJS too: a process
 *   that loads no ES module never starts Node's ES module loader, ~7 ms of a `--version`).
 *
 *   node --import tsx scripts/build.ts [out dir]      (default: the package's dist/)
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build, type BuildOptions, type Metafile } from 'esbuild'

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/** Writes `sessiontape.cjs`, `THIRD-PARTY-NOTICES.txt` and `start.cjs` into `outDir`. */
export async function buildCli(outDir: string): Promise<void> {
  const common: BuildOptions = {
    bundle: true,
    platform: 'node',
    target: 'node20',
    // The workspace's sources, as the tests run them; the published packages' dist/ is the same code.
    conditions: ['@sessiontape/source'],
    logLevel: 'warning',
  }
  const outfile = path.join(outDir, 'sessiontape.cjs')
  const { metafile } = await build({
    ...common,
    entryPoints: [path.join(packageDir, 'src/main.ts')],
    format: 'cjs',
    supported: { 'dynamic-import': false },
    outfile,
    metafile: true,
  })
  writeFileSync(path.join(outDir, 'THIRD-PARTY-NOTICES.txt'), thirdPartyNotices(metafile, outfile))
  await build({
    ...common,
    entryPoints: [path.join(packageDir, 'src/start-from-code-cache.ts')],
    format: 'cjs',
    outfile: path.join(outDir, 'start.cjs'),
  })
}

/** A package's license files: LICENSE, LICENCE.md, LICENSE-MIT, LICENSE-APACHE, COPYING… */
const LICENSE_FILE = /^(licen[cs]e|copying)([-_.].*)?$/i

/**
 * The license texts of each package (from node_modules) whose code is in the bundle — the inputs that
 * contributed bytes to `outfile`, not every file esbuild read (tree-shaken ones are not in it) — by name
 * and version. A package without a license file fails the build: its notice cannot be shipped.
 */
function thirdPartyNotices(metafile: Metafile, outfile: string): string {
  const output = Object.entries(metafile.outputs).find(
    ([file]) => path.resolve(file) === path.resolve(outfile),
  )
  if (output === undefined) throw new Error(`esbuild's metafile does not list ${outfile}`)
  const packageDirs = new Set<string>()
  for (const [input, { bytesInOutput }] of Object.entries(output[1].inputs)) {
    if (bytesInOutput === 0) continue
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
    const files = readdirSync(dir)
      .filter((name) => LICENSE_FILE.test(name))
      .sort()
    if (files.length === 0)
      throw new Error(`${manifest.name}@${manifest.version} (${dir}) has no license file`)
    const texts = files.map((name) => readFileSync(path.join(dir, name), 'utf8').trim())
    sections.push(
      `${manifest.name}@${manifest.version} — ${manifest.license ?? 'no license field'}\n\n${texts.join('\n\n')}`,
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
