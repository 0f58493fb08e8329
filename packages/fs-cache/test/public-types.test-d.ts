// Type-level tests of the public API, checked by `tsc` (the repo typecheck covers test/).
import { expectTypeOf } from 'vitest'
import {
  createPathCache,
  ensureDir,
  ensureDirSync,
  forgetDir,
  type InvalidateOptions,
  type IsPathWithinOptions,
  type PathCache,
  type PathCacheOptions,
  type PathCacheStats,
  type SlimStat,
} from '@sessiontape/fs-cache'

const cache = createPathCache()
expectTypeOf(cache).toEqualTypeOf<PathCache>()
expectTypeOf(createPathCache).parameter(0).toEqualTypeOf<PathCacheOptions | undefined>()
expectTypeOf(cache.realpath('/')).toEqualTypeOf<Promise<string>>()
expectTypeOf(cache.realpathSync('/')).toEqualTypeOf<string>()
expectTypeOf(cache.stat('/')).toEqualTypeOf<Promise<SlimStat>>()
expectTypeOf(cache.statSync('/')).toEqualTypeOf<SlimStat>()
expectTypeOf(cache.isDirectory('/')).toEqualTypeOf<Promise<boolean>>()
expectTypeOf(cache.existsSync('/')).toEqualTypeOf<boolean>()
expectTypeOf(cache.isPathWithin('/', '/x')).toEqualTypeOf<Promise<boolean>>()
expectTypeOf(cache.findInDir('/', '.gitignore')).toEqualTypeOf<Promise<string | undefined>>()
expectTypeOf<Parameters<PathCache['invalidate']>[1]>().toEqualTypeOf<InvalidateOptions | undefined>()
expectTypeOf(cache.invalidate('/')).toEqualTypeOf<number>()
expectTypeOf(cache.stats()).toEqualTypeOf<PathCacheStats>()
expectTypeOf<keyof PathCacheStats>().toEqualTypeOf<
  'hits' | 'misses' | 'inflightJoins' | 'evictions' | 'invalidations' | 'size'
>()
expectTypeOf<SlimStat>().toEqualTypeOf<{
  readonly isFile: boolean
  readonly isDirectory: boolean
  readonly isSymbolicLink: boolean
  readonly size: number
  readonly mtimeMs: number
  readonly ino: number
  readonly dev: number
}>()
expectTypeOf(ensureDir('/x')).toEqualTypeOf<Promise<void>>()
expectTypeOf(ensureDirSync('/x')).toEqualTypeOf<void>()
expectTypeOf(forgetDir('/x')).toEqualTypeOf<number>()
// @ts-expect-error -- `fs`/`now` are internal seams, but a plain typo must still be an error.
createPathCache({ maxx: 3 })

// Issue #13: isPathWithin takes an opt-in re-check of stored answers.
expectTypeOf<IsPathWithinOptions>().toEqualTypeOf<{ readonly verify?: boolean }>()
expectTypeOf<Parameters<PathCache['isPathWithinSync']>[2]>().toEqualTypeOf<IsPathWithinOptions | undefined>()
expectTypeOf<Parameters<PathCache['isPathWithin']>[2]>().toEqualTypeOf<IsPathWithinOptions | undefined>()
