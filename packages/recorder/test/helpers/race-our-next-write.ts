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
  let armed = false
  const fs: RecorderFs = {
    ...nodeFs,
    write: async (fd, buffer, offset, length) => {
      if (!armed) return nodeFs.write(fd, buffer, offset, length)
      armed = false
      change.before?.()
      const written = await nodeFs.write(fd, buffer, offset, length)
      change.after?.()
      return written
    },
  }
  return { fs, arm: () => (armed = true) }
}
