import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'

/** One Claude Code assistant line: a content block of a response, repeating the response's usage. */
function assistant(o: {
  uuid: string
  parent: string | null
  sessionId: string
  timestamp: string
  messageId: string
  requestId: string
  model: string
  block: Record<string, unknown>
  usage: Record<string, number>
  isSidechain?: boolean
}): string {
  return JSON.stringify({
    parentUuid: o.parent,
    isSidechain: o.isSidechain ?? false,
    userType: 'external',
    cwd: '/home/dev/app',
    sessionId: o.sessionId,
    version: '2.0.14',
    gitBranch: 'main',
    message: {
      id: o.messageId,
      type: 'message',
      role: 'assistant',
      model: o.model,
      content: [o.block],
      stop_reason: null,
      stop_sequence: null,
      usage: o.usage,
    },
    requestId: o.requestId,
    type: 'assistant',
    uuid: o.uuid,
    timestamp: o.timestamp,
  })
}

function user(
  uuid: string,
  parent: string | null,
  sessionId: string,
  timestamp: string,
  text: string,
): string {
  return JSON.stringify({
    parentUuid: parent,
    isSidechain: false,
    userType: 'external',
    cwd: '/home/dev/app',
    sessionId,
    version: '2.0.14',
    gitBranch: 'main',
    type: 'user',
    message: { role: 'user', content: text },
    uuid,
    timestamp,
  })
}

/**
 * A `~/.claude/projects` tree in the shapes Claude Code writes, with every case a usage count can get wrong:
 * a response split over three lines (thinking, text, tool_use) repeating its usage; a resumed session whose
 * new file starts with a copy of the old one's last response; a subagent file under `<session>/subagents/`;
 * a usage-only line without a uuid; a `<synthetic>` error message; two days and two models. Returns the
 * `projects` directory.
 */
export async function writeClaudeProjects(configDir: string): Promise<string> {
  const projects = path.join(configDir, 'projects')
  const project = path.join(projects, '-home-dev-app')
  const s1 = 'aaaaaaaa-0000-4000-8000-000000000001'
  const s2 = 'aaaaaaaa-0000-4000-8000-000000000002'
  const usageA = {
    input_tokens: 12,
    cache_creation_input_tokens: 3000,
    cache_read_input_tokens: 15000,
    output_tokens: 420,
  }
  const usageB = {
    input_tokens: 7,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 18000,
    output_tokens: 95,
  }
  const first = [
    user('u1', null, s1, '2026-02-10T09:00:00.000Z', 'add a retry to the fetch'),
    ...(['thinking', 'text', 'tool_use'] as const).map((kind, i) =>
      assistant({
        uuid: `a1-${i}`,
        parent: i === 0 ? 'u1' : `a1-${i - 1}`,
        sessionId: s1,
        timestamp: `2026-02-10T09:00:0${i + 2}.000Z`,
        messageId: 'msg_01A',
        requestId: 'req_01A',
        model: 'claude-sonnet-4-5-20250929',
        block:
          kind === 'thinking'
            ? { type: 'thinking', thinking: 'Look at fetch.ts', signature: 's' }
            : kind === 'text'
              ? { type: 'text', text: 'Reading fetch.ts' }
              : { type: 'tool_use', id: 'toolu_01', name: 'Read', input: { file_path: 'fetch.ts' } },
        usage: usageA,
      }),
    ),
    assistant({
      uuid: 'a2',
      parent: 'a1-2',
      sessionId: s1,
      timestamp: '2026-02-10T23:59:59.000Z',
      messageId: 'msg_01B',
      requestId: 'req_01B',
      model: 'claude-sonnet-4-5-20250929',
      block: { type: 'text', text: 'Done.' },
      usage: usageB,
    }),
    JSON.stringify({
      type: 'assistant',
      uuid: 'a3',
      parentUuid: 'a2',
      sessionId: s1,
      timestamp: '2026-02-10T23:59:59.500Z',
      isApiErrorMessage: true,
      message: {
        id: 'msg_err',
        model: '<synthetic>',
        role: 'assistant',
        content: [{ type: 'text', text: 'API Error' }],
        usage: { input_tokens: 0, output_tokens: 0 },
      },
      requestId: 'req_err',
    }),
  ]
  // The resumed session: Claude copies the last response into the new file (same ids, same time).
  const second = [
    first[4]!,
    user('u2', 'a2', s2, '2026-02-11T08:00:00.000Z', 'and a test'),
    assistant({
      uuid: 'a4',
      parent: 'u2',
      sessionId: s2,
      timestamp: '2026-02-11T08:00:05.000Z',
      messageId: 'msg_02A',
      requestId: 'req_02A',
      model: 'claude-opus-4-1-20250805',
      block: { type: 'text', text: 'Added.' },
      usage: { input_tokens: 2200, cache_creation_input_tokens: 800, output_tokens: 1300 },
    }),
    // A line with usage and no uuid (ccusage's own fixtures have these).
    JSON.stringify({
      timestamp: '2026-02-11T08:30:00.000Z',
      sessionId: s2,
      message: {
        role: 'assistant',
        id: 'msg_02B',
        model: 'claude-opus-4-1-20250805',
        usage: { input_tokens: 40, output_tokens: 9, cache_read_input_tokens: 500 },
      },
      requestId: 'req_02B',
      version: '2.0.14',
    }),
  ]
  const subagent = [
    assistant({
      uuid: 'sa1',
      parent: null,
      sessionId: s2,
      timestamp: '2026-02-11T08:10:00.000Z',
      messageId: 'msg_03A',
      requestId: 'req_03A',
      model: 'claude-haiku-4-5-20251001',
      block: { type: 'text', text: 'Found 3 callers' },
      usage: { input_tokens: 900, output_tokens: 60 },
      isSidechain: true,
    }),
  ]
  await mkdir(path.join(project, s2, 'subagents'), { recursive: true })
  await writeFile(path.join(project, `${s1}.jsonl`), `${first.join('\n')}\n`)
  await writeFile(path.join(project, `${s2}.jsonl`), `${second.join('\n')}\n`)
  await writeFile(path.join(project, s2, 'subagents', 'agent-3f2a.jsonl'), `${subagent.join('\n')}\n`)
  return projects
}
