/**
 * Each agent's own edit tools come out as diffs, and each agent's own image shape as an image, from
 * transcripts written here in the agents' formats (Codex rollouts, Gemini CLI chats, Qwen Code records;
 * Claude Code's are in export-html-shows-subagents-images-diffs-and-styles.test.ts).
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { exportSession } from '../src/index.js'
import { png } from './fixtures/claude-rich-session.js'

const PNG = png(4, 4).toString('base64')

function write(name: string, lines: readonly unknown[]): string {
  const file = join(mkdtempSync(join(tmpdir(), 'st-edits-')), name)
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n')
  return file
}

const PATCH =
  '*** Begin Patch\n*** Update File: src/app.ts\n@@\n-const port = 80\n+const port = 8080\n*** End Patch\n'

function codex(): string {
  const at = (s: number): string => new Date(Date.UTC(2026, 8, 1, 10, 0, s)).toISOString()
  return write('rollout-2026-09-01T10-00-00-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl', [
    {
      timestamp: at(0),
      type: 'session_meta',
      payload: {
        id: '0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
        cwd: '/w',
        originator: 'codex_cli_rs',
        cli_version: '0.50.0',
      },
    },
    {
      timestamp: at(1),
      type: 'response_item',
      payload: {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: 'Use port 8080, like the mockup.' },
          { type: 'input_image', image_url: `data:image/png;base64,${PNG}` },
        ],
      },
    },
    {
      timestamp: at(2),
      type: 'response_item',
      payload: {
        type: 'custom_tool_call',
        status: 'completed',
        call_id: 'call_p1',
        name: 'apply_patch',
        input: PATCH,
      },
    },
    {
      timestamp: at(3),
      type: 'response_item',
      payload: {
        type: 'custom_tool_call_output',
        call_id: 'call_p1',
        output:
          '{"output":"Success. Updated the following files:\\nM src/app.ts\\n","metadata":{"exit_code":0}}',
      },
    },
    {
      timestamp: at(4),
      type: 'response_item',
      payload: {
        type: 'function_call',
        name: 'shell',
        call_id: 'call_p2',
        arguments: JSON.stringify({ command: ['apply_patch', PATCH.replace('80\n', '81\n')] }),
      },
    },
    {
      timestamp: at(5),
      type: 'response_item',
      payload: { type: 'function_call_output', call_id: 'call_p2', output: 'Done' },
    },
  ])
}

function gemini(): string {
  return write('session-2026-09-01T10-00-1a2b3c4d.jsonl', [
    {
      sessionId: '1a2b3c4d-0000-4000-8000-000000000001',
      projectHash: 'h',
      startTime: '2026-09-01T10:00:00.000Z',
      lastUpdated: '2026-09-01T10:00:00.000Z',
      kind: 'main',
    },
    {
      id: 'm1',
      timestamp: '2026-09-01T10:00:01.000Z',
      type: 'user',
      content: [
        { text: 'Fix the greeting, see the image' },
        { inlineData: { mimeType: 'image/png', data: PNG } },
      ],
    },
    {
      id: 'm2',
      timestamp: '2026-09-01T10:00:03.000Z',
      type: 'gemini',
      content: 'Done.',
      model: 'gemini-2.5-pro',
      toolCalls: [
        {
          id: 'replace-1',
          name: 'replace',
          args: { file_path: '/w/hello.py', old_string: 'print("helo")', new_string: 'print("hello")' },
          status: 'success',
          result: [{ functionResponse: { id: 'replace-1', name: 'replace', response: { output: 'ok' } } }],
        },
        {
          id: 'write-2',
          name: 'write_file',
          args: { file_path: '/w/README.md', content: '# Hello\n' },
          status: 'success',
          result: [{ functionResponse: { id: 'write-2', name: 'write_file', response: { output: 'ok' } } }],
        },
      ],
    },
  ])
}

function qwen(): string {
  const base = { sessionId: 'qwen-edit-1', cwd: '/w', version: '0.24.7', gitBranch: 'main' }
  return write('qwen-edit-1.jsonl', [
    {
      uuid: 'q1',
      parentUuid: null,
      ...base,
      timestamp: '2026-09-01T10:00:00.000Z',
      type: 'user',
      message: {
        role: 'user',
        parts: [{ text: 'Rename the flag' }, { inlineData: { mimeType: 'image/png', data: PNG } }],
      },
    },
    {
      uuid: 'q2',
      parentUuid: 'q1',
      ...base,
      timestamp: '2026-09-01T10:00:02.000Z',
      type: 'assistant',
      model: 'qwen3-coder-plus',
      message: {
        role: 'model',
        parts: [
          {
            functionCall: {
              id: 'c1',
              name: 'edit',
              args: { file_path: '/w/cli.ts', old_string: "flag('--old')", new_string: "flag('--new')" },
            },
          },
          {
            functionCall: {
              id: 'c2',
              name: 'write_file',
              args: { file_path: '/w/CHANGES', content: 'renamed --old to --new' },
            },
          },
        ],
      },
    },
  ])
}

describe('exportSession() shows edits as diffs and images inline for every agent', () => {
  it('Codex: apply_patch (custom tool and shell) as a diff, input_image as an image', async () => {
    const md = (await exportSession(codex(), { format: 'md' })).text!
    expect(md).toContain(
      '```diff\n*** Begin Patch\n*** Update File: src/app.ts\n@@\n-const port = 80\n+const port = 8080\n*** End Patch\n```',
    )
    expect(md).toContain('-const port = 81\n+const port = 8080')
    expect(md).toContain('_Image (image/png, ')
    const html = (await exportSession(codex(), { format: 'html' })).text!
    expect(html).toContain(`"src":"data:image/png;base64,${PNG}"`)
  })

  it('Gemini CLI: replace and write_file as diffs, inlineData as an image', async () => {
    const md = (await exportSession(gemini(), { format: 'md' })).text!
    expect(md).toContain('```diff\n@@ /w/hello.py\n-print("helo")\n+print("hello")\n```')
    expect(md).toContain('```diff\n@@ /w/README.md\n+# Hello\n```')
    expect((await exportSession(gemini(), { format: 'html' })).text!).toContain(
      `"src":"data:image/png;base64,${PNG}"`,
    )
  })

  it('Qwen Code: edit and write_file as diffs, inlineData as an image', async () => {
    const md = (await exportSession(qwen(), { format: 'md' })).text!
    expect(md).toContain("```diff\n@@ /w/cli.ts\n-flag('--old')\n+flag('--new')\n```")
    expect(md).toContain('```diff\n@@ /w/CHANGES\n+renamed --old to --new\n```')
    expect((await exportSession(qwen(), { format: 'html' })).text!).toContain(
      `"src":"data:image/png;base64,${PNG}"`,
    )
  })
})
