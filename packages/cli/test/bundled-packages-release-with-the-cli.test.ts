import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { packageDir } from './helpers/cli.js'

// The CLI ships the workspace packages it uses inside its bundle (scripts/build.ts), as devDependencies: a
// fix in one of them reaches the CLI's users only through a release of the CLI, and changesets never bumps
// a package for a change in a devDependency. So every pending changeset that releases one of them releases
// the CLI too (a patch at least).
const root = path.resolve(packageDir, '../..')
const changesetDir = path.join(root, '.changeset')

interface Manifest {
  readonly name: string
  readonly dependencies?: Record<string, string>
  readonly devDependencies?: Record<string, string>
}

async function manifestOf(dir: string): Promise<Manifest> {
  return JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as Manifest
}

/** The workspace packages the CLI bundles: its workspace devDependencies and, transitively, theirs. */
async function bundledPackages(): Promise<string[]> {
  const byName = new Map<string, Manifest>()
  for (const name of await readdir(path.join(root, 'packages'))) {
    const manifest = await manifestOf(path.join(root, 'packages', name))
    byName.set(manifest.name, manifest)
  }
  const workspaceDeps = (deps: Record<string, string> = {}) =>
    Object.entries(deps)
      .filter(([, range]) => range.startsWith('workspace:'))
      .map(([name]) => name)
  const found = new Set<string>()
  const queue = workspaceDeps((await manifestOf(packageDir)).devDependencies)
  while (queue.length > 0) {
    const name = queue.pop()!
    if (found.has(name)) continue
    found.add(name)
    queue.push(...workspaceDeps(byName.get(name)?.dependencies))
  }
  return [...found].sort()
}

/** The packages a changeset releases: its front matter's `'name': level` lines, `none` left out. */
function releases(text: string): string[] {
  // As @changesets/parse reads it: CRLF files, blank lines and spaces around the fences included.
  const front = /^\s*---([^]*?)\n\s*---/.exec(text.replace(/\r\n/g, '\n'))
  if (front === null) return []
  return [...front[1]!.matchAll(/^\s*["']?([^"':\s]+)["']?\s*:\s*(\w+)\s*$/gm)]
    .filter((m) => m[2] !== 'none')
    .map((m) => m[1]!)
}

describe('a release of a package the CLI bundles is a release of the CLI', () => {
  it('the CLI bundles its workspace devDependencies and theirs, and has no runtime dependencies', async () => {
    const manifest = await manifestOf(packageDir)
    expect(manifest.dependencies ?? {}).toEqual({})
    expect(await bundledPackages()).toEqual([
      '@sessiontape/fs-cache',
      '@sessiontape/recorder',
      '@sessiontape/sessions',
    ])
  })

  it('every pending changeset that names a bundled package names @sessiontape/cli too', async () => {
    const bundled = await bundledPackages()
    const names = (await readdir(changesetDir)).filter((name) => name.endsWith('.md') && name !== 'README.md')
    const missing: string[] = []
    let parsed = 0
    for (const name of names) {
      const named = releases(await readFile(path.join(changesetDir, name), 'utf8'))
      if (named.length > 0) parsed++
      if (named.some((pkg) => bundled.includes(pkg)) && !named.includes('@sessiontape/cli'))
        missing.push(name)
    }
    expect(missing, "add `'@sessiontape/cli': patch` to these changesets").toEqual([])
    // Every changeset file was understood (none skipped as unreadable).
    expect(parsed).toBe(names.length)
  })

  it('reads front matter as changesets does', () => {
    const crlf = "---\r\n'@sessiontape/recorder': minor\r\n---\r\n\r\nText\r\n"
    expect(releases(crlf)).toEqual(['@sessiontape/recorder'])
    expect(releases('\n  ---  \n  "@sessiontape/sessions": patch\n@sessiontape/cli: none\n---\n')).toEqual([
      '@sessiontape/sessions',
    ])
    expect(releases('---\n---\n')).toEqual([])
  })
})
