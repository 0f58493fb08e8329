import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { DirMemo } from '../src/dir-memo.js'
import { countingFs, deferred } from './helpers/counting-fs.js'
import { tempDir } from './helpers/temp-dir.js'

describe('ensureDir shares one in-flight mkdir per directory', () => {
  it('16 concurrent calls make one mkdir and all resolve', async () => {
    const dir = path.join(await tempDir(), 'x', 'y')
    const counted = countingFs()
    const memo = new DirMemo(counted.fs, 16)
    await Promise.all(Array.from({ length: 16 }, () => memo.ensure(dir)))
    expect(counted.calls.mkdir).toBe(1)
    expect(fs.statSync(dir).isDirectory()).toBe(true)
  })

  it('concurrent callers all see one failure, and the next call retries', async () => {
    const dir = path.join(await tempDir(), 'x')
    const counted = countingFs()
    const memo = new DirMemo(counted.fs, 16)
    const gate = deferred()
    counted.gate = gate.promise
    counted.failWith = (op) => (op === 'mkdir' ? Object.assign(new Error('EIO'), { code: 'EIO' }) : undefined)
    const all = Promise.allSettled([memo.ensure(dir), memo.ensure(dir), memo.ensure(dir)])
    gate.resolve()
    const results = await all
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected'])
    expect(counted.calls.mkdir).toBe(1)
    counted.reset()
    await memo.ensure(dir)
    expect(counted.calls.mkdir).toBe(1)
  })

  it.for(['forget', 'clear'] as const)(
    '%s during the in-flight mkdir: callers still resolve, the success is not memoized',
    async (how) => {
      const dir = path.join(await tempDir(), 'x')
      const counted = countingFs()
      const memo = new DirMemo(counted.fs, 16)
      const gate = deferred()
      counted.gate = gate.promise
      const waiting = Promise.all([memo.ensure(dir), memo.ensure(dir)])
      if (how === 'forget') memo.forget(dir)
      else memo.clear()
      // A call after the forget does not join the older mkdir: it runs its own.
      counted.gate = undefined
      const after = memo.ensure(dir)
      expect(counted.calls.mkdir).toBe(2)
      await after
      gate.resolve()
      await expect(waiting).resolves.toEqual([undefined, undefined])
      counted.reset()
      // The fresh mkdir memoized; the stale one (released last) did not undo that.
      await memo.ensure(dir)
      expect(counted.calls.mkdir).toBe(0)
    },
  )

  it.for(['forget', 'clear'] as const)('%s during the mkdir: its success is not memoized', async (how) => {
    const dir = path.join(await tempDir(), 'x')
    const counted = countingFs()
    const memo = new DirMemo(counted.fs, 16)
    const gate = deferred()
    counted.gate = gate.promise
    const waiting = memo.ensure(dir)
    if (how === 'forget') memo.forget(dir)
    else memo.clear()
    gate.resolve()
    await waiting
    counted.reset()
    // The directory may have been removed right after that mkdir: the next call must check again.
    await memo.ensure(dir)
    expect(counted.calls.mkdir).toBe(1)
  })
})
