import { lstat, readdir, readFile, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from './helpers/cli.js'
import { withTempDir } from '../../recorder/test/helpers/records.js'
import {
  meta,
  metaPath,
  setMtime,
  writeMetaFile,
  writeTranscript,
} from '../../recorder/test/helpers/sessions.js'

/** Every entry of a directory and of its subdirectories (`.sessiontape`): name, type, mode, size, mtime and bytes. */
async function snapshot(dir: string, prefix = ''): Promise<unknown[]> {
  const entries: unknown[] = []
  for (const name of (await readdir(dir)).sort()) {
    const info = await lstat(path.join(dir, name))
    if (info.isDirectory()) entries.push(...(await snapshot(path.join(dir, name), `${prefix}${name}/`)))
    entries.push({
      name: `${prefix}${name}`,
      link: info.isSymbolicLink(),
      mode: info.mode,
      size: info.size,
      mtimeMs: info.mtimeMs,
      bytes: info.isFile() ? (await readFile(path.join(dir, name))).toString('base64') : null,
    })
  }
  return entries
}

describe('list, show, verify and tail write nothing', () => {
  // 19 CLI child processes: each is ~1 s of Node startup under tsx on a loaded 2-core machine.
  it(
    'leaves the directory byte-identical: missing, stale, foreign and symlinked sidecars included',
    { timeout: 90_000 },
    async () => {
      await withTempDir(async (dir) => {
        await writeTranscript(dir, 'missing', 3)
        await writeTranscript(dir, 'stale', 4)
        await writeMetaFile(dir, meta('stale', '2026-01-01T00:00:00.000Z', 1))
        await setMtime(metaPath(dir, 'stale'), 1_000_000)
        await setMtime(path.join(dir, 'stale.jsonl'), 1_000_060)
        // Another tool's files that happen to use the same names (and where older versions kept sidecars).
        await writeFile(path.join(dir, 'agent-1.jsonl'), '{"parentUuid":null,"type":"user"}\n')
        await writeFile(path.join(dir, 'agent-1.meta.json'), '{"agentType":"general-purpose"}')
        await writeTranscript(dir, 'linked', 2)
        await writeFile(path.join(dir, 'target.txt'), 'do not touch', { mode: 0o644 })
        await symlink(path.join(dir, 'target.txt'), path.join(dir, 'linked.meta.json'))
        await writeFile(path.join(dir, 'torn.jsonl'), '{"uuid":"u0","parentUuid":null,"sessionId":"torn"')
        const before = await snapshot(dir)
        const runs = [
          ['list', dir],
          ['list', '--json', dir],
          ...['missing', 'stale', 'agent-1', 'torn'].flatMap((id) => {
            const file = path.join(dir, `${id}.jsonl`)
            return [
              ['show', file],
              ['show', '--tree', file],
              ['verify', file],
              ['tail', '-n', '5', file],
            ]
          }),
        ]
        for (const args of runs) {
          const { code } = await runCli(...args)
          expect([0, 1]).toContain(code)
          expect(await snapshot(dir), args.join(' ')).toEqual(before)
        }
      })
    },
  )
})
