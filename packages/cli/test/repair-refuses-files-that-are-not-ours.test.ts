import { lstat, readFile, readdir, readlink, symlink, writeFile } from 'node:fs/promises'
import { watch } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from './helpers/cli.js'
import { makeChain, toJsonl, withTempDir } from '../../recorder/test/helpers/records.js'

/** The shape of a Claude Code session line: parentUuid first, no `v`, a `version` string. */
function claudeCodeSession(lines: number): string {
  let text = `${JSON.stringify({ type: 'summary', summary: 'Refactor', leafUuid: 'b' })}\n`
  for (let i = 0; i < lines; i++) {
    text += `${JSON.stringify({
      parentUuid: i === 0 ? null : `a${i - 1}`,
      isSidechain: false,
      userType: 'external',
      cwd: '/home/user/project',
      sessionId: '0f1e2d3c',
      version: '1.0.43',
      type: i % 2 === 0 ? 'user' : 'assistant',
      message: { role: 'user', content: `message ${i} ${'x'.repeat(200)}` },
      uuid: `a${i}`,
      timestamp: '2026-01-01T00:00:00.000Z',
    })}\n`
  }
  return text
}

describe('repair never damages a file we did not write; never leaves an empty transcript', () => {
  it('refuses another tool’s JSONL with exit 3 and leaves it byte-identical (dry run and --out too)', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 'session.jsonl')
      const text = claudeCodeSession(250)
      expect(text.length).toBeGreaterThan(70_000)
      await writeFile(file, text)
      for (const args of [[file], ['--dry-run', file], ['--out', path.join(dir, 'copy.jsonl'), file]]) {
        // Watch the directory while it runs: not even the session lock may appear next to the file.
        const seen = new Set<string>()
        const watcher = watch(dir, (_event, name) => {
          if (name !== null) seen.add(name)
        })
        const { code, stderr } = await runCli('repair', ...args)
        watcher.close()
        expect([...seen]).toEqual([])
        expect(code).toBe(3)
        expect(stderr).toContain('was not written by sessiontape')
        expect(await readFile(file, 'utf8')).toBe(text)
        expect(await readdir(dir)).toEqual(['session.jsonl'])
      }
      const json = await runCli('repair', '--json', file)
      expect(json.code).toBe(3)
      expect(JSON.parse(json.stdout)).toMatchObject({ error: { code: 'ERR_FOREIGN_FILE', exitCode: 3 } })
    })
  })

  it('refuses random bytes the same way', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 'noise.jsonl')
      const bytes = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251))
      await writeFile(file, bytes)
      expect((await runCli('repair', file)).code).toBe(3)
      expect(await readFile(file)).toEqual(bytes)
      expect(await readdir(dir)).toEqual(['noise.jsonl'])
    })
  })

  it('refuses a repaired copy that would keep no record instead of writing 0 bytes', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      // Ours (a crash during the very first write), but nothing in it can be kept in a copy.
      const text = '{"uuid":"u0","parentUuid":null,"sessionId":"s1","timest'
      await writeFile(file, text)
      const { code, stderr } = await runCli('repair', '--out', path.join(dir, 'copy.jsonl'), file)
      expect(code).toBe(3)
      expect(stderr).toContain('a repaired copy would be empty')
      expect(await readFile(file, 'utf8')).toBe(text)
      expect(await readdir(dir)).toEqual(['s1.jsonl'])
    })
  })

  it('--out never follows or replaces a symlink, dangling or not', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      await writeFile(file, `${toJsonl(makeChain(2))}garbage\n`)
      const out = path.join(dir, 'out.jsonl')
      const target = path.join(dir, 'nowhere.jsonl')
      await symlink(target, out)
      const { code, stderr } = await runCli('repair', '--out', out, file)
      expect(code).toBe(2)
      expect(stderr).toContain('already exists')
      expect((await lstat(out)).isSymbolicLink()).toBe(true)
      expect(await readlink(out)).toBe(target)
      expect((await readdir(dir)).sort()).toEqual(['out.jsonl', 's1.jsonl'])
    })
  })

  it('never writes through a symlinked transcript: a copy is made, an append through it is refused', async () => {
    await withTempDir(async (dir) => {
      const real = path.join(dir, 'real.jsonl')
      const text = `${toJsonl(makeChain(2))}garbage\n`
      await writeFile(real, text)
      const link = path.join(dir, 's1.jsonl')
      await symlink(real, link)
      expect((await runCli('repair', link)).code).toBe(0)
      expect((await lstat(link)).isSymbolicLink()).toBe(true)
      expect(await readFile(real, 'utf8')).toBe(text)
      const torn = `${toJsonl(makeChain(2))}{"uuid":"torn`
      await writeFile(real, torn)
      const refused = await runCli('repair', link)
      expect(refused.code).toBe(3)
      expect(refused.stderr).toContain('is a symlink')
      expect(await readFile(real, 'utf8')).toBe(torn)
    })
  })
})
