// What `import('proper-lockfile')` hands the lock's loader depends on who built the program: Node and most
// bundlers put module.exports at `default`; rollup's commonjs plugin with `defaultIsModuleExports: false`
// spreads the exports with `default` undefined; a one-file rollup bundle whose entry is still at a
// top-level await gives `undefined` (the module has not run). The first two must work; the third must be
// refused with a code and the way out, not a TypeError on `undefined.default`.
import { describe, expect, it } from 'vitest'
import { lockfileApiOf } from '../src/lock/lockfile-module.js'

describe('the lock finds proper-lockfile in every shape an import() can take', () => {
  it('Node: module.exports at default', async () => {
    const namespace: unknown = await import('proper-lockfile')
    const api = lockfileApiOf(namespace)
    expect(typeof api.lock).toBe('function')
    expect(typeof api.unlockSync).toBe('function')
  })

  it('exports spread on the namespace, default undefined', async () => {
    const real = (await import('proper-lockfile')).default
    const api = lockfileApiOf({ default: undefined, lock: real.lock, unlockSync: real.unlockSync })
    expect(api.lock).toBe(real.lock)
    expect(api.unlockSync).toBe(real.unlockSync)
  })

  it('not evaluated yet (undefined): a typed error naming the cause and the way out', () => {
    let caught: unknown
    try {
      lockfileApiOf(undefined)
    } catch (error) {
      caught = error
    }
    expect(caught).toMatchObject({ code: 'ERR_LOCK_MODULE_NOT_READY' })
    expect((caught as Error).message).toMatch(/top-level await.*void main\(\)/)
  })

  it('something that is not proper-lockfile: the same typed error', () => {
    expect(() => lockfileApiOf({ default: {} })).toThrow(
      expect.objectContaining({ code: 'ERR_LOCK_MODULE_NOT_READY' }) as Error,
    )
  })
})
