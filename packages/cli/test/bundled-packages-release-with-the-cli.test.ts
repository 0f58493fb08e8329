import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { packageDir } from './helpers/cli.js'

// The CLI ships these workspace packages inside its bundle (scripts/build.ts), as devDependencies: a fix
// in one of them reaches the CLI's users only through a release of the CLI, and changesets never bumps a
// package for a change in a devDependency. So every pending changeset that releases one of them releases
// the CLI too (a patch at least).
const BUNDLED = ['@sessiontape/recorder', '@sessiontape/sessions', '@sessiontape/fs-cache']
const changesetDir = path.resolve(packageDir, '../../.changeset')

/** The packages a changeset file releases (its front matter's `'name': level` lines). */
function releases(text: string): string[] {
  const front = /^---\n([\s\S]*?)\n---/.exec(text)
  if (front === null) return []
  return [...front[1]!.matchAll(/^['"]?(@?[^'":]+)['"]?\s*:/gm)].map((m) => m[1]!)
}

describe('a release of a package the CLI bundles is a release of the CLI', () => {
  it('every pending changeset that names a bundled package names @sessiontape/cli too', async () => {
    const names = (await readdir(changesetDir)).filter((name) => name.endsWith('.md') && name !== 'README.md')
    const missing: string[] = []
    for (const name of names) {
      const named = releases(await readFile(path.join(changesetDir, name), 'utf8'))
      if (named.some((pkg) => BUNDLED.includes(pkg)) && !named.includes('@sessiontape/cli'))
        missing.push(name)
    }
    expect(missing, "add `'@sessiontape/cli': patch` to these changesets").toEqual([])
  })

  it('the bundled packages are the CLI’s devDependencies, not its dependencies', async () => {
    const manifest = JSON.parse(await readFile(path.join(packageDir, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>
      devDependencies?: Record<string, string>
    }
    expect(manifest.dependencies ?? {}).toEqual({})
    for (const name of BUNDLED.filter((pkg) => pkg !== '@sessiontape/fs-cache'))
      expect(manifest.devDependencies).toHaveProperty([name])
  })
})
