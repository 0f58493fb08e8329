// The packages' exports list the `@sessiontape/source` condition first, so tests and examples run the
// live TypeScript sources with no build. If the condition stopped resolving, these imports would load
// the built `dist/` copies instead: different module instances, so the identity checks would fail.
import * as fsCache from '@sessiontape/fs-cache'
import * as recorder from '@sessiontape/recorder'
import * as shutdown from '@sessiontape/shutdown'
import { describe, expect, it } from 'vitest'
import * as fsCacheSource from '../../packages/fs-cache/src/index.js'
import * as recorderSource from '../../packages/recorder/src/index.js'
import * as shutdownSource from '../../packages/shutdown/src/index.js'

describe.for([
  ['@sessiontape/recorder', recorder, recorderSource],
  ['@sessiontape/fs-cache', fsCache, fsCacheSource],
  ['@sessiontape/shutdown', shutdown, shutdownSource],
] as const)('%s', ([, viaPackageName, viaSourcePath]) => {
  it('resolves to the live source module through the source condition', () => {
    const names = Object.keys(viaSourcePath)
    expect(names.length).toBeGreaterThan(0)
    expect(Object.keys(viaPackageName).sort()).toEqual([...names].sort())
    for (const name of names) {
      expect(viaPackageName[name as keyof typeof viaPackageName]).toBe(
        viaSourcePath[name as keyof typeof viaSourcePath],
      )
    }
  })
})
