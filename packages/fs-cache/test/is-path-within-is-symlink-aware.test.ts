import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { createPathCache } from '@sessiontape/fs-cache'
import { tempDir } from './helpers/temp-dir.js'

type Cache = ReturnType<typeof createPathCache>
const modes: [string, (c: Cache, root: string, target: string) => Promise<boolean>][] = [
  ['async', (c, root, target) => c.isPathWithin(root, target)],
  ['sync', (c, root, target) => new Promise((resolve) => resolve(c.isPathWithinSync(root, target)))],
]

describe.for(modes)('isPathWithin (%s) is a symlink-aware boundary check', ([, within]) => {
  async function workspace(): Promise<{ ws: string; outside: string }> {
    const top = await tempDir()
    const ws = path.join(top, 'ws')
    const outside = path.join(top, 'outside')
    fs.mkdirSync(path.join(ws, 'src'), { recursive: true })
    fs.mkdirSync(path.join(top, 'ws2'))
    fs.mkdirSync(outside)
    fs.writeFileSync(path.join(ws, 'src', 'a.ts'), '')
    fs.writeFileSync(path.join(outside, 'secret'), 'x')
    fs.symlinkSync(outside, path.join(ws, 'escape'))
    fs.symlinkSync(path.join(outside, 'secret'), path.join(ws, 'secret-link'))
    fs.symlinkSync(path.join(ws, 'src'), path.join(ws, 'src-link'))
    // Dangling links: realpath says ENOENT, yet writing through them creates the file at their target.
    fs.symlinkSync(path.join(outside, 'not-yet'), path.join(ws, 'dangling-out'))
    fs.symlinkSync('../outside/nope/deeper', path.join(ws, 'dangling-rel'))
    fs.symlinkSync(path.join(ws, 'src', 'later.ts'), path.join(ws, 'dangling-in'))
    fs.symlinkSync('dangling-out', path.join(ws, 'to-dangling-out'))
    return { ws, outside }
  }

  it.for([
    ['the root itself', '.', true],
    ['an existing file inside', 'src/a.ts', true],
    ['a symlink inside pointing inside', 'src-link/a.ts', true],
    ['a symlinked dir pointing outside', 'escape', false],
    ['a file through a symlinked dir pointing outside', 'escape/secret', false],
    ['a file symlink pointing outside', 'secret-link', false],
    ['a missing file inside', 'src/new.ts', true],
    ['a missing file under a missing dir inside', 'new/dir/file.ts', true],
    ['a missing file through a link pointing outside', 'escape/new.txt', false],
    ['.. escaping lexically', '../outside/secret', false],
    ['a sibling sharing the name prefix (ws2)', '../ws2', false],
    ['.. after a symlink, resolved physically (escape/.. is the outside parent)', 'escape/../outside', false],
    ['.. inside a missing tail that climbs out', 'missing/../../outside/x', false],
    ['a dangling symlink pointing outside (a write would create the file there)', 'dangling-out', false],
    ['a relative dangling symlink pointing outside', 'dangling-rel', false],
    ['a missing file under a dangling symlink pointing outside', 'dangling-rel/x', false],
    ['a link to a dangling symlink pointing outside', 'to-dangling-out', false],
    ['a dangling symlink pointing inside', 'dangling-in', true],
  ] as const)('%s (%s) → %s', async ([, rel, expected]) => {
    const { ws } = await workspace()
    const cache = createPathCache()
    // Spelled raw, not path.join'ed: joining would collapse `escape/..` lexically before the OS sees it.
    expect(await within(cache, ws, `${ws}/${rel}`)).toBe(expected)
  })

  it('a cached answer is never reused for a spelling that differs only by `link/..`', async () => {
    const { ws } = await workspace()
    fs.mkdirSync(path.join(ws, 'inner'))
    const cache = createPathCache()
    expect(await within(cache, ws, `${ws}/inner`)).toBe(true)
    // Lexically the same path, but the OS follows `escape` first: its `..` is the outside parent.
    expect(await within(cache, ws, `${ws}/escape/../inner`)).toBe(false)
  })

  it('a root given through a symlink is resolved too', async () => {
    const { ws } = await workspace()
    const wsLink = `${ws}-link`
    fs.symlinkSync(ws, wsLink)
    const cache = createPathCache()
    expect(await within(cache, wsLink, path.join(ws, 'src/a.ts'))).toBe(true)
    expect(await within(cache, wsLink, path.join(wsLink, 'escape/secret'))).toBe(false)
  })

  it('a derived answer for a missing path is never stored: created later as a symlink outside → false', async () => {
    const { ws, outside } = await workspace()
    const cache = createPathCache()
    const planned = path.join(ws, 'planned')
    expect(await within(cache, ws, planned)).toBe(true)
    expect(await within(cache, ws, path.join(planned, 'x'))).toBe(true)
    // Between the check and the use, the path appears as a symlink that leaves the workspace.
    fs.symlinkSync(outside, planned)
    expect(await within(cache, ws, planned)).toBe(false)
    expect(await within(cache, ws, path.join(planned, 'secret'))).toBe(false)
    expect(await within(cache, ws, path.join(planned, 'x'))).toBe(false)
  })

  it('a symlink loop in the target is reported (ELOOP), not answered', async () => {
    const { ws } = await workspace()
    fs.symlinkSync(path.join(ws, 'loop-b'), path.join(ws, 'loop-a'))
    fs.symlinkSync(path.join(ws, 'loop-a'), path.join(ws, 'loop-b'))
    const cache = createPathCache()
    await expect(within(cache, ws, path.join(ws, 'loop-a', 'x'))).rejects.toMatchObject({ code: 'ELOOP' })
  })

  it('a missing root is reported (ENOENT), not answered', async () => {
    const { ws } = await workspace()
    const cache = createPathCache()
    await expect(within(cache, path.join(ws, 'nope'), ws)).rejects.toMatchObject({ code: 'ENOENT' })
  })
})
