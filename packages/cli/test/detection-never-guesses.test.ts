import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { writeSegmentedSession } from '../../recorder/test/helpers/segmented-session.js'
import { makeChain, toJsonl, withTempDir } from '../../recorder/test/helpers/records.js'
import { meta, writeMetaFile } from '../../recorder/test/helpers/sessions.js'
import { runCliWith } from './helpers/cli.js'

const SAMPLES = '/work/shared/samples'
/** Each agent's real-format session, and the format it must be read as. */
const AGENT_FILES = [
  ['claude-code/representative_messages.jsonl', 'claude.jsonl', 'claude-code'],
  ['codex-cli/standard_session.jsonl', 'codex.jsonl', 'codex-cli'],
  ['gemini-cli/session-2026-10-01T09-00-a1b2c3d4.jsonl', 'session-gemini.jsonl', 'gemini-cli'],
  ['gemini-cli/legacy-standard_session.json', 'session-legacy.json', 'gemini-json'],
  ['qwen-code/qwen-code-session.jsonl', 'qwen.jsonl', 'qwen-code'],
  ['copilot-cli/stage0-small.jsonl', 'copilot.jsonl', 'copilot-cli'],
  ['cursor-cli/stage0-small.jsonl', 'cursor.jsonl', 'cursor-cli'],
] as const

/** Files with a transcript's name whose content is no session of any agent. */
const UNKNOWN = ['usage.jsonl', 'app-log.jsonl', 'picture.jsonl', 'empty.jsonl', 'config.jsonl'] as const

const run = (home: string, ...args: string[]) =>
  runCliWith({ env: { HOME: home, SESSIONTAPE_CACHE_DIR: path.join(home, 'cache') } }, ...args)

async function mixedDirectory(root: string): Promise<string> {
  const dir = path.join(root, 'mixed')
  await mkdir(dir, { recursive: true })
  for (const [from, to] of AGENT_FILES) await copyFile(path.join(SAMPLES, from), path.join(dir, to))
  // A real Claude line made 855 KB long by a pasted image, first in its file: no bounded prefix holds it.
  const claude = (await readFile(path.join(SAMPLES, AGENT_FILES[0][0]), 'utf8')).split('\n')
  const user = claude
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .find((record) => record.type === 'user')!
  user.message = {
    role: 'user',
    content: [
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'A'.repeat(855_000) } },
    ],
  }
  await writeFile(path.join(dir, 'claude-image.jsonl'), `${JSON.stringify(user)}\n${claude.join('\n')}`)
  await writeFile(
    path.join(dir, 'usage.jsonl'),
    '{"date":"2026-11-01","model":"qwen3-coder-plus","input":120,"output":40}\n{"date":"2026-11-02","model":"qwen3-coder-plus","input":9,"output":1}\n',
  )
  await writeFile(
    path.join(dir, 'app-log.jsonl'),
    '{"level":30,"time":1764300000000,"pid":7,"hostname":"h","msg":"listening"}\n{"level":40,"time":1764300000001,"msg":"slow"}\n',
  )
  // A PNG's signature and header chunk, saved under a transcript's name.
  await writeFile(
    path.join(dir, 'picture.jsonl'),
    Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex'),
  )
  await writeFile(path.join(dir, 'empty.jsonl'), '')
  await writeFile(path.join(dir, 'config.jsonl'), '{"theme":"dark","model":"sonnet"}\n')
  // Never entered: a package tree and our sidecar directory.
  await mkdir(path.join(dir, 'node_modules', 'pkg'), { recursive: true })
  await copyFile(path.join(SAMPLES, AGENT_FILES[1][0]), path.join(dir, 'node_modules', 'pkg', 'x.jsonl'))
  return dir
}

describe('detection never guesses', () => {
  it('list shows each agent’s sessions and skips every other file, naming it with --skipped', async () => {
    await withTempDir(async (root) => {
      const dir = await mixedDirectory(root)
      const listed = await run(root, 'list', '--json', dir)
      expect(listed.code).toBe(0)
      const rows = JSON.parse(listed.stdout) as { filePath: string; format: string }[]
      const byName = Object.fromEntries(rows.map((row) => [path.basename(row.filePath), row.format]))
      expect(byName).toEqual({
        ...Object.fromEntries(AGENT_FILES.map(([, name, format]) => [name, format])),
        'claude-image.jsonl': 'claude-code',
      })
      const skipped = await run(root, 'list', '--skipped', '--json', dir)
      expect(skipped.code).toBe(0)
      const files = JSON.parse(skipped.stdout) as { path: string; reason: string }[]
      expect(files.map((f) => path.basename(f.path)).sort()).toEqual([...UNKNOWN].sort())
      expect(new Set(files.map((f) => f.reason))).toEqual(new Set(['unknown format']))
      const text = await run(root, 'list', dir)
      expect(text.stdout).toContain(`${UNKNOWN.length} file(s) skipped (not a session); --skipped lists them`)
    })
  })

  it('show and verify say `unknown format` (exit 2) of a file of no format, and read every session', async () => {
    await withTempDir(async (root) => {
      const dir = await mixedDirectory(root)
      for (const name of UNKNOWN) {
        for (const command of ['show', 'verify']) {
          const result = await run(root, command, path.join(dir, name))
          expect([name, command, result.code]).toEqual([name, command, 2])
          expect(result.stderr).toContain('unknown format')
          expect(result.stdout).not.toMatch(/record\(s\)|no problems|repair/)
        }
      }
      for (const name of [...AGENT_FILES.map(([, to]) => to), 'claude-image.jsonl']) {
        const verified = await run(root, 'verify', '--json', path.join(dir, name))
        expect(verified.stderr).not.toContain('unknown format')
        const scan = JSON.parse(verified.stdout) as { format: string; records: number }
        expect([name, scan.format === 'sessiontape', scan.records > 0]).toEqual([name, false, true])
      }
    })
  })

  it('still reads our own damaged transcripts as ours, their problems shown', async () => {
    await withTempDir(async (root) => {
      const dir = path.join(root, 'ours')
      await mkdir(dir)
      const chain = (id: string) => toJsonl(makeChain(3, id))
      await writeFile(path.join(dir, 'torn.jsonl'), `${chain('torn')}{"uuid":"u9","parentUu`)
      const glued = chain('glued').split('\n')
      await writeFile(path.join(dir, 'glued.jsonl'), `${glued[0]}${glued[1]}\n${glued.slice(2).join('\n')}`)
      await writeFile(path.join(dir, 'cut.jsonl'), chain('cut').slice(25))
      await writeFile(path.join(dir, 'empty-ours.jsonl'), '')
      await writeMetaFile(dir, meta('empty-ours', '2026-01-01T00:00:00.000Z', 0))
      await mkdir(path.join(root, 'seg'))
      const segmented = await writeSegmentedSession(path.join(root, 'seg'))
      const expected = [
        ['torn.jsonl', 'torn-tail'],
        ['glued.jsonl', 'glued'],
        ['cut.jsonl', 'invalid-json'],
      ] as const
      for (const [name, kind] of expected) {
        const verified = await run(root, 'verify', '--json', path.join(dir, name))
        expect(verified.stderr).toBe('')
        const scan = JSON.parse(verified.stdout) as { format: string; problemsByKind: Record<string, number> }
        expect([name, verified.code, scan.format, kind in scan.problemsByKind]).toEqual([
          name,
          1,
          'sessiontape',
          true,
        ])
      }
      const empty = await run(root, 'verify', path.join(dir, 'empty-ours.jsonl'))
      expect(empty.stderr).not.toContain('unknown format')
      for (const file of segmented.files) {
        const verified = await run(root, 'verify', '--json', file)
        expect(verified.stderr).not.toContain('unknown format')
        expect((JSON.parse(verified.stdout) as { format: string }).format).toBe('sessiontape')
      }
      const listed = await run(root, 'list', '--skipped', '--json', dir)
      expect(JSON.parse(listed.stdout)).toEqual([])
    })
  })
})
