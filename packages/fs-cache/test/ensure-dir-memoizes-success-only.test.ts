import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  createPathCache,
  ensureDir,
  ensureDirSync,
  forgetDir,
  FsCacheArgumentError,
} from '@sessiontape/fs-cache'
import { DirMemo } from '../src/dir-memo.js'
import { countingFs, errnoError } from './helpers/counting-fs.js'
import { tempDir } from './helpers/temp-dir.js'

describe('ensureDir memoizes success only', () => {
  it('creates missing parents with mode 0o700 by default', async () => {
    const dir = path.join(await tempDir(), 'a', 'b', 'c')
    await ensureDir(dir)
    const st = fs.statSync(dir)
    expect(st.isDirectory()).toBe(true)
    // The umask can only remove bits, and 0o700 has none for group/other to remove.
    expect(st.mode & 0o777).toBe(0o700)
  })

  it('honours an explicit mode', async () => {
    const dir = path.join(await tempDir(), 'shared')
    ensureDirSync(dir, { mode: 0o750 })
    expect(fs.statSync(dir).mode & 0o700).toBe(0o700)
    expect(fs.statSync(dir).mode & 0o007).toBe(0)
  })

  it('a second call after success makes no syscall', async () => {
    const root = await tempDir()
    const counted = countingFs()
    const memo = new DirMemo(counted.fs, 16)
    await memo.ensure(path.join(root, 'x'))
    await memo.ensure(path.join(root, 'x'))
    memo.ensureSync(path.join(root, 'x'))
    // A relative spelling of the same directory resolves to the same memo key.
    const relative = path.relative(process.cwd(), path.join(root, 'x'))
    await memo.ensure(relative)
    expect(counted.calls.mkdir + counted.calls.mkdirSync).toBe(1)
  })

  it.for(['async', 'sync'] as const)(
    '%s: a failed mkdir is reported unchanged and retried next call',
    async (mode) => {
      const root = await tempDir()
      const counted = countingFs()
      const memo = new DirMemo(counted.fs, 16)
      const dir = path.join(root, 'later')
      const injected = errnoError('EACCES', 'mkdir', dir)
      counted.failWith = () => injected
      const call = (): Promise<void> | void => (mode === 'async' ? memo.ensure(dir) : memo.ensureSync(dir))
      if (mode === 'async') await expect(call()).rejects.toBe(injected)
      else expect(call).toThrow(injected)
      counted.failWith = undefined
      await call()
      expect(fs.statSync(dir).isDirectory()).toBe(true)
      await call()
      expect(counted.calls.mkdir + counted.calls.mkdirSync).toBe(2)
    },
  )

  it('a real failure (a file in the way) keeps its code and path, and is retried once fixed', async () => {
    const root = await tempDir()
    const blocker = path.join(root, 'blocker')
    fs.writeFileSync(blocker, '')
    const dir = path.join(blocker, 'sub')
    const err = await ensureDir(dir).then(
      () => undefined,
      (e: unknown) => e as NodeJS.ErrnoException,
    )
    expect(err?.code).toBe('ENOTDIR')
    fs.rmSync(blocker)
    await ensureDir(dir)
    expect(fs.statSync(dir).isDirectory()).toBe(true)
  })

  it('forgetDir makes the next call create a removed directory again', async () => {
    const dir = path.join(await tempDir(), 'session')
    await ensureDir(dir)
    fs.rmSync(dir, { recursive: true })
    // Memoized: the removal is not noticed (documented); this is what forgetDir is for.
    await ensureDir(dir)
    expect(fs.existsSync(dir)).toBe(false)
    expect(forgetDir(dir)).toBe(1)
    await ensureDir(dir)
    expect(fs.existsSync(dir)).toBe(true)
  })

  it('a cache has its own memo, which invalidate(dir) forgets', async () => {
    const dir = path.join(await tempDir(), 'per-cache')
    const counted = countingFs()
    const cache = createPathCache({ fs: counted.fs })
    await cache.ensureDir(dir)
    cache.ensureDirSync(dir)
    expect(counted.calls.mkdir + counted.calls.mkdirSync).toBe(1)
    fs.rmSync(dir, { recursive: true })
    cache.invalidate(path.dirname(dir), { deep: true })
    cache.ensureDirSync(dir)
    expect(fs.statSync(dir).isDirectory()).toBe(true)
    expect(counted.calls.mkdirSync).toBe(1)
  })

  it('forgetDir with deep drops the subtree on a separator boundary only', async () => {
    const root = await tempDir()
    const counted = countingFs()
    const memo = new DirMemo(counted.fs, 16)
    for (const name of ['a', 'a/b', 'a/b/c', 'ab']) await memo.ensure(path.join(root, name))
    expect(memo.forget(path.join(root, 'a'), { deep: true })).toBe(3)
    counted.reset()
    await memo.ensure(path.join(root, 'ab'))
    expect(counted.calls.mkdir).toBe(0)
    await memo.ensure(path.join(root, 'a/b'))
    expect(counted.calls.mkdir).toBe(1)
  })

  it('rejects bad input at the call with a TypeError', () => {
    for (const bad of [undefined, '', 42, null]) {
      expect(() => ensureDirSync(bad as string)).toThrow(FsCacheArgumentError)
      expect(() => void ensureDir(bad as string)).toThrow(TypeError)
    }
    expect(() => ensureDirSync('/tmp', { mode: -1 })).toThrow(/Expected `options.mode` to be an integer/)
    expect(() => ensureDirSync('/tmp', { mode: 1.5 })).toThrow(TypeError)
    expect(() => forgetDir('')).toThrow(/Expected `dir` to be a non-empty string, got `""` \(string\)/)
  })
})
