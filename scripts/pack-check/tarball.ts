import { mkdir, readdir, readFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { mustRun } from './run.js'

/** What a published tarball may contain: the build, its sources (for the maps), the bin, the docs. */
const ALLOWED = [
  /^dist\//,
  /^src\//,
  /^bin\//,
  /^package\.json$/,
  /^README\.md$/,
  /^LICENSE$/,
  /^CHANGELOG\.md$/,
]
const REQUIRED = ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md']
/** A library's entry; a command-only package (`@sessiontape/cli`: a bin, no `.` export) has its bin instead. */
const LIBRARY_ENTRY = ['dist/index.js', 'dist/index.d.ts']
/** Fields a registry page and `npm repo`/`npm bugs` need. */
const METADATA = ['description', 'keywords', 'homepage', 'bugs', 'repository', 'license', 'engines']

export interface Manifest {
  readonly name: string
  readonly version: string
  readonly exports?: unknown
  readonly bin?: Record<string, string>
  readonly dependencies?: Record<string, string>
  readonly [field: string]: unknown
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split('\\').join('/'))
}

/**
 * Unpacks one tarball into `into` and checks its file list and manifest. Returns the manifest and the
 * problems found (empty = fine).
 */
export async function inspectTarball(
  tarball: string,
  into: string,
): Promise<{ manifest: Manifest; problems: string[] }> {
  await mkdir(into, { recursive: true })
  await mustRun('tar', ['-xzf', tarball, '-C', into], into)
  const root = join(into, 'package')
  const files = await listFiles(root)
  const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as Manifest
  const problems: string[] = []
  for (const file of files) {
    if (!ALLOWED.some((pattern) => pattern.test(file))) problems.push(`unexpected file ${file}`)
    if (/\.test(-d)?\.ts$|\.tsbuildinfo$/.test(file)) problems.push(`test or build artefact ${file}`)
  }
  const bins = Object.values(manifest.bin ?? {}).map((bin) => bin.replace(/^\.\//, ''))
  const library = JSON.stringify(manifest.exports ?? null).includes('"."')
  for (const file of [...REQUIRED, ...(library ? LIBRARY_ENTRY : []), ...bins])
    if (!files.includes(file)) problems.push(`missing ${file}`)
  if (JSON.stringify(manifest.exports ?? null).includes('@sessiontape/source'))
    problems.push(
      'the published exports still list @sessiontape/source (live TypeScript, a dev-only condition)',
    )
  for (const [name, range] of Object.entries(manifest.dependencies ?? {}))
    if (/^(workspace|catalog|link|file):/.test(range))
      problems.push(`dependency ${name}@${range} was not rewritten`)
  for (const field of METADATA)
    if (manifest[field] === undefined) problems.push(`no "${field}" in package.json`)
  for (const file of files.filter((name) => name.endsWith('.d.ts')))
    if ((await readFile(join(root, file), 'utf8')).includes('@internal'))
      problems.push(`${file} still declares an @internal test seam`)
  return { manifest, problems }
}
