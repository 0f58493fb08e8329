import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'
import * as everything from '@sessiontape/sessions'
import * as catalog from '@sessiontape/sessions/catalog'
import * as search from '@sessiontape/sessions/search'

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/** Every module a program importing `entry` loads (its static import graph, as a bundler sees it). */
async function modulesOf(entry: string): Promise<string[]> {
  const result = await build({
    stdin: { contents: `export * from '${entry}'`, resolveDir: packageDir, loader: 'ts' },
    bundle: true,
    write: false,
    platform: 'node',
    format: 'esm',
    conditions: ['@sessiontape/source'],
    metafile: true,
    logLevel: 'silent',
  })
  return Object.keys(result.metafile.inputs)
}

// `sessiontape search` / `list` start a process per call: what their entry loads is paid on every call.
describe('@sessiontape/sessions/search and /catalog load neither redaction, export nor the viewer', () => {
  it('export the same functions as the full entry', () => {
    expect(search.searchSessions).toBe(everything.searchSessions)
    expect(search.SEARCH_ROLES).toBe(everything.SEARCH_ROLES)
    expect(catalog.catalogSessions).toBe(everything.catalogSessions)
    expect(catalog.defaultCacheDir).toBe(everything.defaultCacheDir)
    expect(catalog.defaultSessionRoots).toBe(everything.defaultSessionRoots)
  })

  it.for(['@sessiontape/sessions/search', '@sessiontape/sessions/catalog'])('%s', async (entry) => {
    const modules = await modulesOf(entry)
    expect(modules.some((file) => file.includes('src/search/') || file.includes('src/catalog/'))).toBe(true)
    expect(modules.filter((file) => /src\/(redact|export|view)\/|secretlint|playwright/.test(file))).toEqual(
      [],
    )
  })

  it('while the full entry does load them (the check above can fail)', async () => {
    const modules = await modulesOf('@sessiontape/sessions')
    expect(modules.some((file) => file.includes('src/redact/'))).toBe(true)
    expect(modules.some((file) => file.includes('src/view/'))).toBe(true)
  })
})
