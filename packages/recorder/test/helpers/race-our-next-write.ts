import { createRecorder, type Recorder, type RecorderError, type RecorderOptions } from '../../src/index.js'
import { nodeFs, type RecorderFs } from '../../src/util/recorder-fs.js'

/**
 * A race made to happen at a known moment with real file operations: once armed, the recorder's next write
 * runs `before()` just before it lands (after the recorder's last look at the file) and `after()` just after
 * it (before the next look). Disarms itself: every other write is the real one, untouched.
 */
export function raceOurNextWrite(change: { before?: () => void; after?: () => void }): {
  fs: RecorderFs
  arm: () => void
} {
  return raceOurNextWrites([change])
}

/** As {@link raceOurNextWrite}, for the next `changes.length` write calls in a row, one change each. */
export function raceOurNextWrites(changes: readonly { before?: () => void; after?: () => void }[]): {
  fs: RecorderFs
  arm: () => void
} {
  let pending: { before?: () => void; after?: () => void }[] = []
  const fs: RecorderFs = {
    ...nodeFs,
    write: async (fd, buffer, offset, length) => {
      const change = pending.shift()
      if (change === undefined) return nodeFs.write(fd, buffer, offset, length)
      change.before?.()
      const written = await nodeFs.write(fd, buffer, offset, length)
      change.after?.()
      return written
    },
  }
  return { fs, arm: () => (pending = [...changes]) }
}

/**
 * The set-up the race tests share: a recorder in `dir` whose next write, once `arm()` is called, is raced by
 * `change(filePath)` (see {@link raceOurNextWrite}), with every error it reports collected in `errors`. The
 * periodic full check is a minute away unless `options` say otherwise, so what sees the race is the check
 * before each write, not a timer.
 */
export function recorderWithARacedWrite(
  dir: string,
  change: (filePath: string) => { before?: () => void; after?: () => void },
  options: Omit<RecorderOptions, 'dir' | 'fs' | 'onError'> = {},
): { rec: Recorder; errors: RecorderError[]; arm: () => void } {
  // The hooks name the transcript's path, known once the recorder exists; the race only runs after that.
  let hooks: ReturnType<typeof change> = {}
  const racing = raceOurNextWrite({ before: () => hooks.before?.(), after: () => hooks.after?.() })
  const errors: RecorderError[] = []
  const rec = createRecorder({
    fileCheckIntervalMs: 60_000,
    ...options,
    dir,
    fs: racing.fs,
    onError: (error) => errors.push(error),
  })
  hooks = change(rec.filePath)
  return { rec, errors, arm: racing.arm }
}

/** How many records the recorder said were lost, summed over `errors` (reports without a count add 0). */
export function reportedLost(errors: readonly { readonly lost?: { readonly records: number } }[]): number {
  // The typed field, never the message: a program counting losses reads `error.lost`.
  return errors.reduce((sum, error) => sum + (error.lost?.records ?? 0), 0)
}
