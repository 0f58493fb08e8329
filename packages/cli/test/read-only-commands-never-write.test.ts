import { lstat, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli, runInProcess } from './helpers/cli.js'
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
  // One test per command run. The first run of each command is a real `sessiontape` process (the process
  // wiring in main.ts included); the others run the same command code in this process (runInProcess), as a
  // child process per run proved nothing more and cost a Node start with tsx each. The runs share one
  // directory and each compares it with the snapshot taken before the first.
  let dir: string
  let before: unknown[]
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'sessiontape-read-only-'))
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
    before = await snapshot(dir)
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  // Missing, stale, foreign and symlinked sidecars, another tool's transcript and a torn one (names are
  // relative to the directory, so each test's name says what it ran).
  const runs = [
    'list .',
    'list --json .',
    ...['missing', 'stale', 'agent-1', 'torn'].flatMap((id) => [
      `show ${id}.jsonl`,
      `show --tree ${id}.jsonl`,
      `verify ${id}.jsonl`,
      `tail -n 5 ${id}.jsonl`,
    ]),
  ]
  const seen = new Set<string>()
  const cases = runs.map((run) => {
    const command = run.split(' ')[0]!
    const inProcess = seen.has(command)
    seen.add(command)
    return { run, how: inProcess ? 'in this process' : 'a real process', inProcess }
  })
  it.for(cases)(
    'leaves the directory byte-identical: sessiontape $run ($how)',
    async ({ run, inProcess }) => {
      const args = run
        .split(' ')
        .map((arg) => (arg === '.' || arg.endsWith('.jsonl') ? path.join(dir, arg) : arg))
      const { code } = await (inProcess ? runInProcess(...args) : runCli(...args))
      // 2 only for agent-1.jsonl, a line of no format we read: `show` and `verify` refuse it as unknown.
      expect(run.includes('agent-1') && !run.startsWith('tail') ? [0, 1, 2] : [0, 1]).toContain(code)
      expect(await snapshot(dir)).toEqual(before)
    },
  )
})
