import * as fs from 'node:fs/promises'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterEach } from 'vitest'

const made: string[] = []

/** A fresh real directory (realpath'd: /tmp may itself be a symlink), removed after each test. */
export async function tempDir(): Promise<string> {
  const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'fs-cache-')))
  made.push(dir)
  return dir
}

afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => fs.rm(dir, { recursive: true, force: true })))
})
