import { nodeFs, type FsAdapter } from '../src/fs-adapter.js'

/** The real file system with a counter on the calls the dedup scenario makes: each count is one real syscall. */
export function countingFs(): { fs: FsAdapter; counts: { stat: number; realpath: number } } {
  const counts = { stat: 0, realpath: 0 }
  const fs: FsAdapter = {
    ...nodeFs,
    stat: (p) => {
      counts.stat++
      return nodeFs.stat(p)
    },
    realpath: (p) => {
      counts.realpath++
      return nodeFs.realpath(p)
    },
  }
  return { fs, counts }
}
