// A tool validates and resolves every path through the cache: hits cost nanoseconds, misses are never kept.
import { mkdtemp, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createPathCache } from '@sessiontape/fs-cache'

const workspace = await mkdtemp(join(tmpdir(), 'sessiontape-basics-'))
const cache = createPathCache({ max: 256 })

async function readTool(path: string): Promise<string> {
  const target = join(workspace, path)
  if (!(await cache.isPathWithin(workspace, target))) return `refused: ${path} leaves the workspace`
  if (!(await cache.exists(target))) return `not found: ${path}`
  const { size } = await cache.stat(target)
  return `ok: ${path} (${size} bytes)`
}

console.log(await readTool('notes.md')) // not found, and the miss is not cached…
await writeFile(join(workspace, 'notes.md'), '# notes\n')
console.log(await readTool('notes.md')) // …so the file written a moment ago is seen at once
await symlink(tmpdir(), join(workspace, 'escape'))
console.log(await readTool('escape/secrets.txt')) // a symlink pointing outside is refused
for (let i = 0; i < 1000; i++) await readTool('notes.md')
console.log(cache.stats())
