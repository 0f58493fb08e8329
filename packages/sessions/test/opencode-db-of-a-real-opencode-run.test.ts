import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { readOpenCodeDb, type Conversation } from '@sessiontape/sessions'

const file = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/opencode-1.18.33/opencode.db')

/** The session row's own running totals, normalized as the reader normalizes each request. */
function rowTotals(session: Conversation): { input: number; output: number } {
  const row = session.events.find((e) => e.kind === 'session')!.raw as Record<string, number>
  return {
    input: row.tokens_input! + row.tokens_cache_read! + row.tokens_cache_write!,
    output: row.tokens_output! + row.tokens_reasoning!,
  }
}

describe('a store the real OpenCode 1.18.33 wrote is read whole', () => {
  it('reads every session with its prompt, tool call, answer and subagent link', async () => {
    const db = await readOpenCodeDb(file)
    expect(db.rowsNotRead).toBe(0)
    expect(db.sessions).toHaveLength(5)
    const text = (s: Conversation, kind: 'user' | 'assistant') =>
      s.events.flatMap((e) => (e.kind === kind ? [e.text] : []))
    const tool = db.sessions.find((s) => text(s, 'user').some((t) => t.includes('CONF-TOOL')))!
    expect(text(tool, 'user').join('\n')).toContain('CONF-RESUME')
    const call = tool.events.find((e) => e.kind === 'tool-call')
    expect(call).toMatchObject({ name: 'bash', input: { command: 'ls' } })
    const result = tool.events.find((e) => e.kind === 'tool-result')
    expect(result).toMatchObject({ isError: false })
    expect(result?.kind === 'tool-result' && result.output).toContain('notes.txt')
    const child = db.sessions.find((s) => text(s, 'user').some((t) => t.startsWith('CONF-SUBTASK')))!
    const parent = db.sessions.find((s) => text(s, 'user').some((t) => t.includes('CONF-SUBAGENT')))!
    expect(child.events.find((e) => e.kind === 'session')).toMatchObject({
      agentVersion: '1.18.33',
      parentSessionId: parent.sessionId,
    })
  })

  it("counts each session's requests to OpenCode's own totals in its session row", async () => {
    const db = await readOpenCodeDb(file)
    let requests = 0
    for (const session of db.sessions) {
      const usage = session.events.flatMap((e) => (e.kind === 'usage' ? [e.usage] : []))
      requests += usage.length
      const sum = usage.reduce(
        (acc, u) => ({ input: acc.input + u.inputTokens, output: acc.output + u.outputTokens }),
        { input: 0, output: 0 },
      )
      expect(sum).toEqual(rowTotals(session))
    }
    expect(requests).toBe(7)
  })
})
