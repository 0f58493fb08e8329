import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

import { createRecorder, type RecorderError } from '../src/index.js'

/** A read-only tmpfs, where this machine allows mounting one (root, or CAP_SYS_ADMIN); else undefined. */
function readOnlyMount(): string | undefined {
  const at = fs.mkdtempSync(path.join(os.tmpdir(), 'sessiontape-rofs-'))
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=1m', 'tmpfs', at], { stdio: 'ignore' })
    return at
  } catch {
    fs.rmdirSync(at)
    return undefined
  }
}

const mounted = readOnlyMount()
afterAll(() => {
  if (mounted === undefined) return
  execFileSync('umount', [mounted])
  fs.rmdirSync(mounted)
})

describe('on a read-only file system the cause says so', () => {
  it.skipIf(mounted === undefined)(
    "ERR_RECORDER_DIR_FAILED's cause is EROFS, not the ENOENT a recursive mkdir reports",
    async () => {
      const errors: RecorderError[] = []
      const rec = createRecorder({
        dir: path.join(mounted!, 'sessions', 'deeper'),
        onError: (error) => errors.push(error),
      })
      rec.record('first')
      const failure = await rec.flush().catch((error: unknown) => error as RecorderError)
      expect(failure).toMatchObject({ code: 'ERR_RECORDER_DIR_FAILED' })
      expect((failure as RecorderError).cause).toMatchObject({ code: 'EROFS' })
      expect(errors[0]?.cause).toMatchObject({ code: 'EROFS' })
      await rec.close().catch(() => {})
    },
  )
})
