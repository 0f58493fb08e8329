import { appendFile, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

/** A temp directory for the test's body, removed after it. */
export async function withTemp<T>(body: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sessiontape-search-'))
  try {
    return await body(dir)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

export interface Turn {
  readonly user: string
  readonly assistant?: string
  readonly thinking?: string
  readonly tool?: { readonly name: string; readonly input: unknown; readonly output: string }
  readonly at?: string
}

/** Claude Code transcript lines (`~/.claude/projects/<project>/<session>.jsonl`) for the given turns. */
export function claudeLines(sessionId: string, cwd: string, turns: readonly Turn[], start = 0): string {
  const lines: string[] = []
  let n = start
  let parent: string | null = start === 0 ? null : uuidOf(sessionId, start)
  const envelope = (type: string, at: string | undefined) => {
    const uuid = uuidOf(sessionId, ++n)
    const line = {
      parentUuid: parent,
      isSidechain: false,
      userType: 'external',
      cwd,
      sessionId,
      version: '2.1.3',
      gitBranch: 'main',
      type,
      uuid,
      timestamp: at ?? new Date(Date.UTC(2026, 2, 1, 10, 0, n)).toISOString(),
    }
    parent = uuid
    return line
  }
  for (const turn of turns) {
    lines.push(
      JSON.stringify({ ...envelope('user', turn.at), message: { role: 'user', content: turn.user } }),
    )
    const content: unknown[] = []
    if (turn.thinking !== undefined)
      content.push({ type: 'thinking', thinking: turn.thinking, signature: 'sig' })
    if (turn.assistant !== undefined) content.push({ type: 'text', text: turn.assistant })
    if (turn.tool !== undefined)
      content.push({ type: 'tool_use', id: `toolu_${n}`, name: turn.tool.name, input: turn.tool.input })
    const callId = `toolu_${n}`
    lines.push(
      JSON.stringify({
        ...envelope('assistant', turn.at),
        requestId: `req_${n}`,
        message: {
          id: `msg_${n}`,
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content,
          usage: { input_tokens: 100, output_tokens: 10 },
        },
      }),
    )
    if (turn.tool !== undefined) {
      lines.push(
        JSON.stringify({
          ...envelope('user', turn.at),
          message: {
            role: 'user',
            content: [{ type: 'tool_result', tool_use_id: callId, content: turn.tool.output }],
          },
        }),
      )
    }
  }
  return lines.map((line) => `${line}\n`).join('')
}

function uuidOf(sessionId: string, n: number): string {
  return `${sessionId.slice(0, 8)}-0000-4000-8000-${String(n).padStart(12, '0')}`
}

/** Writes a Claude Code session under `<projects>/<project dir>/<sessionId>.jsonl`; returns its path. */
export async function writeClaudeSession(
  projects: string,
  sessionId: string,
  cwd: string,
  turns: readonly Turn[],
): Promise<string> {
  const dir = path.join(projects, cwd.replace(/[^a-zA-Z0-9]/g, '-'))
  await mkdir(dir, { recursive: true })
  const file = path.join(dir, `${sessionId}.jsonl`)
  await writeFile(file, claudeLines(sessionId, cwd, turns))
  return file
}

/** Appends turns to a Claude Code session written by {@link writeClaudeSession}. */
export async function appendClaudeTurns(
  file: string,
  sessionId: string,
  cwd: string,
  turns: readonly Turn[],
): Promise<void> {
  const lines = (await readFile(file, 'utf8')).split('\n').filter((line) => line !== '').length
  await appendFile(file, claudeLines(sessionId, cwd, turns, lines))
}

/** Every file under `dir` with its bytes and mtime: anything written there changes this. */
export async function snapshot(dir: string): Promise<Record<string, string>> {
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
