// A path that does not exist yet is judged where a `mkdir -p` + write would really put it. Its missing
// part used to be folded lexically (`newdir/../lnk` → `lnk` *without* resolving `lnk`), so with
// `ws/lnk -> /outside`, `ws/newdir/../lnk/pwned` passed the check and the write landed in /outside.
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

async function tree(): Promise<{ ws: string; outside: string }> {
  const top = await tempDir()
  const ws = path.join(top, 'ws')
  const outside = path.join(top, 'outside')
  fs.mkdirSync(path.join(ws, 'src'), { recursive: true })
  fs.mkdirSync(outside)
  fs.symlinkSync(outside, path.join(ws, 'lnk'))
  fs.symlinkSync('src', path.join(ws, 'src-link'))
  return { ws, outside }
}

/** What a tool that trusted the check would do: `mkdir -p` the parent, then write the file. */
function writeThrough(target: string): string {
  fs.mkdirSync(path.dirname(target), { recursive: true })
  fs.writeFileSync(target, 'pwned')
  return fs.realpathSync.native(target)
}

describe.for(modes)('isPathWithin (%s) on a path whose tail does not exist yet', ([, within]) => {
  it('issue #13: ws/newdir/../lnk/pwned with ws/lnk -> outside is outside, and a write proves it', async () => {
    const { ws, outside } = await tree()
    const target = `${ws}/newdir/../lnk/pwned`
    expect(await within(createPathCache(), ws, target)).toBe(false)
    expect(writeThrough(target)).toBe(path.join(outside, 'pwned'))
  })

  it.for([
    ['a deeper missing tail climbing back onto the link', 'a/b/../../lnk/x', false],
    ['`.` segments change nothing', 'newdir/./../lnk/x', false],
    ['climbing back onto a link that points inside', 'newdir/../src-link/x', true],
    ['climbing out of the root through a missing directory', 'newdir/../../outside/x', false],
    ['a missing directory and back, staying inside', 'newdir/../src/new.ts', true],
    ['a missing tail after the link', 'lnk/newdir/../x', false],
  ] as const)('%s (%s) → %s, where the write really lands', async ([, rel, expected]) => {
    const { ws } = await tree()
    const target = `${ws}/${rel}`
    expect(await within(createPathCache(), ws, target)).toBe(expected)
    const landed = writeThrough(target)
    expect(landed === ws || landed.startsWith(ws + path.sep)).toBe(expected)
  })

  it('the link being cached as inside-the-tree does not help: the missing tail is still walked on disk', async () => {
    const { ws } = await tree()
    const cache = createPathCache()
    // Warm the cache with every existing component the check will meet.
    expect(await within(cache, ws, `${ws}/src`)).toBe(true)
    expect(await within(cache, ws, `${ws}/lnk`)).toBe(false)
    expect(await within(cache, ws, `${ws}/newdir/../lnk/pwned`)).toBe(false)
  })
})
