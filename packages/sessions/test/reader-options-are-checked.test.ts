import { describe, expect, it } from 'vitest'
import { readConversation, SessionsArgumentError, streamConversation } from '@sessiontape/sessions'

describe('reader options are checked at the call', () => {
  it.for([
    [{ format: 'codex' }, /Expected `format` to be one of 'auto'/],
    [{ maxLineBytes: 0 }, /Expected `maxLineBytes` to be a positive integer, got `0` \(number\)/],
    [{ signal: 'stop' }, /Expected `signal` to be an AbortSignal/],
    [{ fromat: 'auto' }, /Unknown option `fromat`/],
  ] as const)('readConversation rejects %o', async ([options, message]) => {
    await expect(readConversation('x.jsonl', options as never)).rejects.toThrow(message)
    await expect(readConversation('x.jsonl', options as never)).rejects.toBeInstanceOf(SessionsArgumentError)
  })

  it('streamConversation throws at the call, before reading', () => {
    expect(() => streamConversation('x.jsonl', { onProblem: 1 as never })).toThrow(
      /Expected `onProblem` to be a function/,
    )
    expect(() => streamConversation('')).toThrow(/Expected `file` to be a non-empty path/)
  })

  it('a missing file rejects with the fs error', async () => {
    await expect(readConversation('/nonexistent/sessiontape.jsonl')).rejects.toMatchObject({ code: 'ENOENT' })
  })
})
