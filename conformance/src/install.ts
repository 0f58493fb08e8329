import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'

/**
 * Installs pinned releases from the npm registry into a cache outside the workspace, one folder per
 * package and version (`<cache>/<name>@<version>`), so a warm run installs nothing and a version bump in
 * versions.json is one line. `--latest` asks the registry for today's version of each and uses its folder.
 */

const run = promisify(execFile)

export interface Pin {
  readonly package: string
  readonly version: string
}

export type Pins = Readonly<Record<string, Pin>>

export function readPins(file: string): Pins {
  return JSON.parse(readFileSync(file, 'utf8')) as Pins
}

export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  const base = env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache')
  return join(base, 'sessiontape-conformance')
}

/** Today's version of a package (the `--latest` mode): one `npm view` per package. */
export async function latestVersion(pkg: string): Promise<string> {
  const { stdout } = await run('npm', ['view', pkg, 'version'], { timeout: 60_000 })
  return stdout.trim()
}

export interface Installed {
  readonly dir: string
  readonly version: string
  /** false when the folder already held this version (a warm cache). */
  readonly fresh: boolean
}

/** The folder holding `pin` installed, installing it first when the cache does not hold it yet. */
export async function ensureInstalled(name: string, pin: Pin, root = cacheRoot()): Promise<Installed> {
  const dir = join(root, `${name}@${pin.version}`)
  const manifest = join(dir, 'node_modules', pin.package, 'package.json')
  if (existsSync(manifest)) {
    const found = (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version
    if (found === pin.version) return { dir, version: pin.version, fresh: false }
  }
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'package.json'), '{ "private": true }\n')
  const args = ['install', '--no-audit', '--no-fund', '--loglevel=error', `${pin.package}@${pin.version}`]
  // Generous: the cold cache downloads ~400 MB in all (Copilot's and Claude Code's native builds).
  await run('npm', args, { cwd: dir, timeout: 10 * 60_000, maxBuffer: 16 * 1024 * 1024 })
  if (!existsSync(manifest))
    throw new Error(`npm install of ${pin.package}@${pin.version} left no ${manifest}`)
  return { dir, version: pin.version, fresh: true }
}

/** A command installed by a package: `node_modules/.bin/<bin>`. */
export function binPath(installed: Installed, bin: string): string {
  return join(installed.dir, 'node_modules', '.bin', bin)
}
