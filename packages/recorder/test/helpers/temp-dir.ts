import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { onTestFinished } from 'vitest'

/** A fresh directory under the OS temp dir, removed when the current test finishes. */
export async function tempDir(prefix = 'sessiontape-writer-'): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix))
  onTestFinished(async () => {
    await fs.rm(dir, { recursive: true, force: true })
  })
  return dir
}
