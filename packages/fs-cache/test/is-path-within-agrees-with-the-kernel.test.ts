// Property test: over random trees with symlinks leading in, out, back and nowhere, isPathWithin (async and
// sync) answers exactly what the kernel does. The reference is not a second model: it creates the path
// (`mkdir -p` + write, or `mkdir -p` of the path itself), then asks `fs.realpathSync.native` where it
// landed (not the JS `fs.realpathSync`: it folds `link/..` lexically before resolving).
import * as fs from 'node:fs'
import * as path from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createPathCache } from '@sessiontape/fs-cache'
import { tempDir } from './helpers/temp-dir.js'

/** Names a random target is spelled from: existing dirs, a file, links, missing names, `..` and `.`. */
const SEGMENTS = ['d0', 'd1', 'f0', 'l0', 'l1', 'l2', 'l3', 'new', 'x', '..', '..', '.'] as const
/** What each link may point at; `{ws}`/`{out}` become absolute paths. */
const LINK_TARGETS = [
  '../out',
  '{out}',
  '{out}/sub',
  '../out/missing',
  '{out}/missing/deeper',
  'd0',
  'd0/d1',
  'd0/..',
  '..',
  '../ws/d0',
  '{ws}',
  'missing',
  'missing/deeper',
  'f0',
  'l0',
  'l1',
  '../out/back',
] as const

interface Case {
  readonly links: readonly (readonly [where: 'ws' | 'ws/d0' | 'out', target: string])[]
  readonly segments: readonly string[]
  readonly op: 'write' | 'mkdir'
  readonly warm: boolean
}

const caseArb: fc.Arbitrary<Case> = fc.record({
  links: fc.array(
    fc.tuple(
      fc.constantFrom('ws' as const, 'ws/d0' as const, 'out' as const),
      fc.constantFrom(...LINK_TARGETS),
    ),
    { minLength: 4, maxLength: 4 },
  ),
  segments: fc.array(fc.constantFrom(...SEGMENTS), { minLength: 1, maxLength: 7 }),
  op: fc.constantFrom('write' as const, 'mkdir' as const),
  warm: fc.boolean(),
})

function build(top: string, links: Case['links']): { ws: string; out: string } {
  const ws = path.join(top, 'ws')
  const out = path.join(top, 'out')
  fs.mkdirSync(path.join(ws, 'd0', 'd1'), { recursive: true })
  fs.mkdirSync(path.join(ws, 'd1'))
  fs.mkdirSync(path.join(out, 'sub'), { recursive: true })
  fs.writeFileSync(path.join(ws, 'f0'), '')
  fs.symlinkSync(ws, path.join(out, 'back'))
  links.forEach(([where, target], i) => {
    const text = target.replace('{ws}', ws).replace('{out}', out)
    fs.symlinkSync(text, path.join(top, where, `l${i}`))
  })
  return { ws, out }
}

type Answer = boolean | 'error'

async function ours(ws: string, target: string, warm: boolean): Promise<[Answer, Answer]> {
  const cache = createPathCache()
  if (warm) {
    // Every existing prefix already stored: the walk must still be right from cached realpaths.
    for (const spelled of ['d0', 'd0/d1', 'd1', 'l0', 'l1', 'l2', 'l3'])
      await cache.isPathWithin(ws, `${ws}/${spelled}`).catch(() => {})
  }
  const asyncAnswer = await cache.isPathWithin(ws, target).then(
    (v): Answer => v,
    (): Answer => 'error',
  )
  let syncAnswer: Answer
  try {
    syncAnswer = createPathCache().isPathWithinSync(ws, target)
  } catch {
    syncAnswer = 'error'
  }
  return [asyncAnswer, syncAnswer]
}

/** Where the kernel puts it: `undefined` when the operation fails (nothing is written anywhere). */
function kernel(target: string, op: Case['op']): string | undefined {
  try {
    if (op === 'write') {
      fs.mkdirSync(path.dirname(target), { recursive: true })
      fs.writeFileSync(target, 'x', { flag: 'a' })
    } else {
      fs.mkdirSync(target, { recursive: true })
    }
    return fs.realpathSync.native(target)
  } catch {
    return undefined
  }
}

describe('isPathWithin agrees with where the kernel creates the path', () => {
  it('for random trees with symlinks in and out (async and sync, cold and warm cache)', async () => {
    const base = await tempDir()
    let n = 0
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ links, segments, op, warm }) => {
        const top = path.join(base, String(n++))
        fs.mkdirSync(top)
        const { ws } = build(top, links)
        // Spelled raw: path.join would fold `link/..` before the OS sees it.
        const target = `${ws}/${segments.join('/')}`
        const [asyncAnswer, syncAnswer] = await ours(ws, target, warm)
        expect(syncAnswer).toBe(asyncAnswer)
        const landed = kernel(target, op)
        if (landed === undefined) return // nothing was written: any answer is safe
        expect(asyncAnswer, `${target} landed at ${landed}`).toBe(
          landed === ws || landed.startsWith(ws + path.sep),
        )
      }),
      { numRuns: 300 },
    )
  })
})
