import { describe, expect, it } from 'vitest'
import { Redactor, renderEvents } from '../src/index.js'
import type { ConversationEvent } from '../src/model.js'
import { hostileSession, rewoundAnswer } from './fixtures/hostile-events.js'

async function markdown(
  events: ConversationEvent[],
  options: { redact?: boolean; activeOnly?: boolean } = {},
): Promise<string> {
  let out = ''
  await renderEvents(
    events,
    {
      format: 'md',
      activeOnly: options.activeOnly ?? false,
      onBranch: rewoundAnswer,
      ...(options.redact === true ? { redactor: new Redactor() } : {}),
    },
    (chunk) => {
      out += chunk
    },
  )
  return out
}

describe('Markdown export', () => {
  it('has one section per turn, usage per turn and in total', async () => {
    const { events, turns } = hostileSession(12)
    const md = await markdown(events)
    expect(md.match(/^## Turn \d+/gm)).toHaveLength(turns)
    expect(md.match(/^_Usage: /gm)).toHaveLength(turns)
    expect(md).toMatch(
      /^## Totals\n\n- Turns: 12\n- Tokens: 12,660 in \(6,330 cached\) · 1,266 out · 13,926 total$/m,
    )
  })

  it('puts tool calls and results in fences no content can close', async () => {
    const events: ConversationEvent[] = [
      { kind: 'user', id: 'u', line: 1, raw: {}, text: 'go' },
      {
        kind: 'tool-call',
        id: 'c',
        line: 2,
        raw: {},
        callId: '1',
        name: 'Bash',
        input: { command: 'echo ```` done' },
      },
      {
        kind: 'tool-result',
        id: 'r',
        line: 3,
        raw: {},
        callId: '1',
        output: '`````\nnot a fence end\n`````',
        isError: false,
      },
    ]
    const md = await markdown(events)
    expect(md).toContain('`````json\n{\n  "command": "echo ```` done"\n}\n`````\n')
    expect(md).toContain('``````text\n`````\nnot a fence end\n`````\n``````\n')
  })

  it('keeps HTML and terminal escapes inert', async () => {
    const md = await markdown(hostileSession(15).events)
    // Outside fences, '<' is an entity; inside, it is code. No raw tag can start in prose.
    const prose = md.replace(/^(`{3,})[^\n]*\n[\s\S]*?^\1\n/gm, '')
    expect(prose).not.toMatch(/<[a-z!/]/i)
    // eslint-disable-next-line no-control-regex
    expect(md).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/)
    expect(md).toContain('␛[31mred␛[0m')
  })

  it('marks side-branch items, or leaves them out with the active branch only', async () => {
    const { events } = hostileSession(5)
    expect(await markdown(events)).toContain('**Assistant _(side branch)_** (claude-x)\n\nAnswer 3')
    expect(await markdown(events, { activeOnly: true })).not.toContain('Answer 3')
  })

  it('nests subagent turns as a quote and shows compaction and resume markers', async () => {
    const md = await markdown(hostileSession(8).events)
    expect(md).toMatch(/^> \*\*Subagent agent-/m)
    expect(md).toContain('> **Context compacted**')
    expect(md).toContain('> **Recovered**:')
    expect(md).toContain('> **Resumed**:')
  })

  it('with redaction, no planted secret is left and the counts are in the totals', async () => {
    const { events, secrets } = hostileSession(12)
    const md = await markdown(events, { redact: true })
    for (const secret of secrets) for (const part of secret.split('\n')) expect(md).not.toContain(part)
    expect(md).toMatch(/^- Redacted: \d+ secrets \(.*github-token \d+/m)
  })
})
