import { cp, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCliWith } from './helpers/cli.js'
import { withTempDir } from '../../recorder/test/helpers/records.js'

const FIXTURES = path.join(import.meta.dirname, '../../recorder/test/fixtures/formats')

/** Every file and directory under `dir` with its bytes and mtime: anything written there changes this. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  for (const name of await readdir(dir, { recursive: true })) {
    const file = path.join(dir, name)
    const info = await stat(file)
    out[name] = info.isFile()
      ? `${info.mtimeMs} ${(await readFile(file)).toString('base64')}`
      : `dir ${info.mtimeMs}`
  }
  return out
}

describe('list and search write nothing under the listed directories, only their cache', () => {
  it("every agent's usual locations, read by real processes: bytes and mtimes unchanged", async () => {
    await withTempDir(async (root) => {
      const home = path.join(root, 'home')
      const cache = path.join(root, 'cache')
      const project = path.join(home, '.claude', 'projects', '-home-dev-app')
      await cp(path.join(FIXTURES, 'claude-project'), project, { recursive: true })
      await cp(path.join(FIXTURES, 'gemini-chats'), path.join(home, '.gemini', 'tmp', '3f1a2b', 'chats'), {
        recursive: true,
      })
      await cp(
        path.join(FIXTURES, 'qwen-chats'),
        path.join(home, '.qwen', 'projects', '-home-dev-app', 'chats'),
        { recursive: true },
      )
      // A file that cannot be read is listed with a note, and not written either.
      const locked = path.join(project, 'cccccccc-0000-4000-8000-000000000000.jsonl')
      await writeFile(locked, '{"type":"user"}\n', { mode: 0o000 })
      await mkdir(path.join(home, '.codex', 'sessions', '2026', '03', '01'), { recursive: true })
      const before = await snapshot(home)
      const env = { HOME: home, SESSIONTAPE_CACHE_DIR: cache, XDG_CACHE_HOME: undefined }

      const listed = await runCliWith({ env }, 'list', '--json')
      expect(listed.code).toBe(0)
      const sessions = JSON.parse(listed.stdout) as { format: string; note?: string; filePath: string }[]
      expect(new Set(sessions.map((s) => s.format))).toEqual(
        new Set(['claude-code', 'gemini-cli', 'gemini-json', 'qwen-code']),
      )
      const listedLocked = sessions.find((s) => s.filePath === locked)
      if (process.getuid?.() !== 0) {
        // Everyone but root is refused the mode-000 file: it is listed with the note, never hidden.
        expect(listedLocked?.note).toMatch(/unreadable \(EACCES\)/)
      } else {
        // root reads it: a line of no known format is no session, and `--skipped` names it.
        expect(listedLocked).toBeUndefined()
        const skipped = await runCliWith({ env }, 'list', '--skipped', '--json')
        expect(JSON.parse(skipped.stdout)).toContainEqual({ path: locked, reason: 'unknown format' })
      }
      const searched = await runCliWith({ env }, 'search', 'flaky', '--json')
      expect(searched.code).toBe(0)
      expect((JSON.parse(searched.stdout) as { hits: unknown[] }).hits.length).toBeGreaterThan(0)
      // Warm runs too.
      expect((await runCliWith({ env }, 'list')).code).toBe(0)
      expect((await runCliWith({ env }, 'search', 'nothing-like-this')).code).toBe(1)

      expect(await snapshot(home)).toEqual(before)
      expect((await readdir(path.join(cache, 'catalog-v3'))).every((name) => /^\d\d\.bin$/.test(name))).toBe(
        true,
      )
    })
  }, 240_000)
})
