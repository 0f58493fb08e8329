import type * as ProperLockfile from 'proper-lockfile'

// proper-lockfile brings signal-exit (listeners for the exit signals) and graceful-fs (which patches
// `fs.close`) when it is loaded, so it is loaded on first use only: importing this package must not touch
// the process. A dynamic import() of the bare name is the one form every bundler follows and bundles
// (esbuild, rollup + commonjs, webpack, vite), ESM or CommonJS output, and that still runs nothing until it
// is called; a require() is followed by some bundlers only, and createRequire(import.meta.url) resolves
// from the bundle's folder, where there is no node_modules. It is asynchronous, so the one synchronous step
// of taking a lock — the mkdir inside createRecorder — is done without proper-lockfile (lock-dir.ts), which
// is then handed the directory already made.

/** What we use of proper-lockfile. */
export interface LockfileApi {
  readonly lock: typeof ProperLockfile.lock
  readonly unlockSync: typeof ProperLockfile.unlockSync
}

let loading: Promise<LockfileApi> | undefined
/** Set once loaded: the exit path (synchronous) can use it only if it is here already. */
let loaded: LockfileApi | undefined

/** proper-lockfile, loaded on the first call; every later call gets the same promise. */
export function loadLockfile(): Promise<LockfileApi> {
  loading ??= import('proper-lockfile').then((namespace) => {
    loaded = lockfileApiOf(namespace)
    return loaded
  })
  return loading
}

/** proper-lockfile if it was loaded already, for the synchronous exit path. */
export function loadedLockfile(): LockfileApi | undefined {
  return loaded
}

/**
 * The API in what `import()` of a CommonJS module gave. Node and most bundlers put `module.exports` at
 * `default`; some set-ups hand the exports spread on the namespace with no usable `default` (rollup's
 * commonjs plugin with `defaultIsModuleExports: false`). In a one-file rollup bundle
 * (`output.inlineDynamicImports`) the module is placed after the entry, and while the entry is stopped at a
 * top-level `await` it has not run yet: the namespace is `undefined`, which nothing here can wait out
 * (the entry may be awaiting this very lock), so it is refused with the cause and the way out.
 * Exported for its test (lock-module-is-found-in-every-bundle-shape.test.ts).
 */
export function lockfileApiOf(namespace: unknown): LockfileApi {
  if (namespace === undefined || namespace === null) {
    throw Object.assign(
      new Error(
        'proper-lockfile has not been evaluated yet: a one-file bundle (rollup output.inlineDynamicImports) ' +
          'runs dynamically imported modules after the entry module, and the entry is still at a top-level ' +
          'await; start the agent from a function instead (`void main()`), or let rollup emit chunks',
      ),
      { code: 'ERR_LOCK_MODULE_NOT_READY' },
    )
  }
  const ns = namespace as { readonly default?: unknown }
  const candidate = (isLockfileApi(ns.default) ? ns.default : namespace) as unknown
  if (!isLockfileApi(candidate))
    throw Object.assign(new Error('proper-lockfile was loaded without its lock() and unlockSync()'), {
      code: 'ERR_LOCK_MODULE_NOT_READY',
    })
  return candidate
}

function isLockfileApi(value: unknown): value is LockfileApi {
  const api = value as Partial<LockfileApi> | null | undefined
  return typeof api?.lock === 'function' && typeof api.unlockSync === 'function'
}
