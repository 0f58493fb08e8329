import { copyFile, mkdir } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { catalogSessions } from '../src/catalog/index.js'
import { withTemp, writeClaudeSession } from './helpers/claude-sessions.js'

// The walk reads a `chats/` or `subagents/` directory only where one is listed (a failed read of a missing
// one cost a warm search an error per project): every layout below must still be found, blocking or not.
describe.for([
  { walk: 'shallow', blocking: false },
  { walk: 'shallow', blocking: true },
  { walk: 'deep', blocking: true },
] as const)('the walk ($walk, blocking: $blocking)', ({ walk, blocking }) => {
  it("finds each session's subagents (in subagents/ and beside it) and the sessions in chats/", async () => {
    await withTemp(async (root) => {
      const projects = path.join(root, 'projects')
      const turn = [{ user: 'hello', assistant: 'hi' }]
      const a = await writeClaudeSession(projects, 'aaaaaaaa-0000-4000-8000-00000000000a', '/w/a', turn)
      const b = await writeClaudeSession(projects, 'aaaaaaaa-0000-4000-8000-00000000000b', '/w/b', turn)
      const c = await writeClaudeSession(projects, 'aaaaaaaa-0000-4000-8000-00000000000c', '/w/c', turn)
      // a: one subagent in `<session>/subagents/`, one beside it; b: a session directory without
      // `subagents/`; c's project: a `chats/` directory of sessions (Gemini CLI's layout).
      const aDir = a.slice(0, -'.jsonl'.length)
      await mkdir(path.join(aDir, 'subagents'), { recursive: true })
      await copyFile(a, path.join(aDir, 'subagents', 'agent-1.jsonl'))
      await copyFile(a, path.join(aDir, 'agent-2.jsonl'))
      const bDir = b.slice(0, -'.jsonl'.length)
      await mkdir(bDir)
      await copyFile(b, path.join(bDir, 'agent-3.jsonl'))
      const chats = path.join(path.dirname(c), 'chats')
      await mkdir(chats)
      const d = path.join(chats, 'aaaaaaaa-0000-4000-8000-00000000000d.jsonl')
      await copyFile(c, d)
      // A project directory with a `chats` file (not a directory): nothing to read there.
      const e = await writeClaudeSession(projects, 'aaaaaaaa-0000-4000-8000-00000000000e', '/w/e', turn)
      await copyFile(e, path.join(path.dirname(e), 'chats'))

      const sessions = await catalogSessions({
        dirs: [projects],
        cacheDir: path.join(root, 'cache'),
        walk,
        blocking,
      })
      const found = Object.fromEntries(
        sessions.map((session) => [
          path.relative(root, session.file),
          (session.subagents ?? []).map((file) => path.relative(root, file)).sort(),
        ]),
      )
      const rel = (file: string) => path.relative(root, file)
      expect(found).toEqual({
        [rel(a)]: [rel(path.join(aDir, 'agent-2.jsonl')), rel(path.join(aDir, 'subagents', 'agent-1.jsonl'))],
        [rel(b)]: [rel(path.join(bDir, 'agent-3.jsonl'))],
        [rel(c)]: [],
        [rel(d)]: [],
        [rel(e)]: [],
      })
    })
  })
})
