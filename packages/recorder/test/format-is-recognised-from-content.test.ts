import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { detectFormat, readSession, streamRecords } from '../src/index.js'
import { makeChain, toJsonl, withTempDir } from './helpers/records.js'

const line = (value: unknown): string => `${JSON.stringify(value)}\n`

describe('a transcript format is recognised from its content, and can be given', () => {
  it.for([
    ['sessiontape', toJsonl(makeChain(2))],
    [
      'claude-code',
      line({ type: 'summary', summary: 'x', leafUuid: 'u' }) +
        line({ parentUuid: null, isSidechain: false, uuid: 'a', type: 'user' }),
    ],
    [
      'claude-code',
      line({
        timestamp: 't',
        sessionId: 's',
        message: { id: 'm', usage: { input_tokens: 1, output_tokens: 1 } },
      }),
    ],
    [
      'qwen-code',
      line({
        uuid: 'a',
        parentUuid: null,
        sessionId: 's',
        timestamp: 't',
        type: 'user',
        message: { role: 'user', parts: [{ text: 'hi' }] },
      }),
    ],
    [
      'gemini-cli',
      line({ sessionId: 's', projectHash: 'h', startTime: 't' }) +
        line({ id: 'm1', type: 'user', content: 'hi' }),
    ],
    ['gemini-json', JSON.stringify({ sessionId: 's', projectHash: 'h', messages: [] }, null, 2)],
    // One minified document alone is the older format; a header line with `messages: []` and lines after it is JSONL.
    ['gemini-json', JSON.stringify({ sessionId: 's', projectHash: 'h', messages: [] })],
    [
      'gemini-cli',
      line({ sessionId: 's', projectHash: 'h', startTime: 't', messages: [] }) +
        line({ id: 'm1', type: 'user', content: 'hi' }),
    ],
    [
      'codex-cli',
      line({ timestamp: 't', type: 'session_meta', payload: { id: 'th', cwd: '/w' } }) +
        line({ timestamp: 't', type: 'response_item', payload: { type: 'message', role: 'user' } }),
    ],
    ['codex-cli', line({ session_id: 'th', ts: 1, text: 'a prompt' })],
    [
      'copilot-cli',
      line({ type: 'session.start', data: { sessionId: 's' }, id: 'e1', timestamp: 't', parentId: null }),
    ],
    ['cursor-cli', line({ role: 'user', message: { content: [{ type: 'text', text: 'hi' }] } })],
    ['sessiontape', ''],
    ['sessiontape', 'garbage\n'],
  ] as const)('%s', async ([format, text]) => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 'f.jsonl')
      await writeFile(file, text)
      expect(await detectFormat(file)).toBe(format)
      expect((await readSession(file)).format).toBe(format)
    })
  })

  it('a file that is only `{`, unterminated, is our first record torn one byte in — not a pretty-printed Gemini document', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 'f.jsonl')
      await writeFile(file, '{')
      expect(await detectFormat(file)).toBe('sessiontape')
      expect((await readSession(file)).problems.map((p) => p.kind)).toEqual(['torn-tail'])
      // A `{` line with its newline still opens a pretty-printed document.
      await writeFile(file, '{\n')
      expect(await detectFormat(file)).toBe('gemini-json')
    })
  })

  it('a `{` line followed by records is our first record torn one byte in and resumed — not a Gemini document', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 'f.jsonl')
      // What resume leaves after a crash one byte into the first record (crash-at-any-byte.property.test.ts
      // found it): the torn `{` ended by a newline, then the `recovered` record and the new ones.
      const records = makeChain(2)
      await writeFile(file, `{\n${toJsonl(records)}`)
      expect(await detectFormat(file)).toBe('sessiontape')
      const read = await readSession(file)
      expect(read.records.map((r) => r.uuid)).toEqual(['u0', 'u1'])
      expect(read.problems.map((p) => [p.kind, p.line])).toEqual([['invalid-json', 1]])
      // A pretty-printed document's second line is a key, or the `}` that closes it.
      await writeFile(file, JSON.stringify({ sessionId: 's', projectHash: 'h', messages: [] }, null, 2))
      expect(await detectFormat(file)).toBe('gemini-json')
      await writeFile(file, '{\n}\n')
      expect(await detectFormat(file)).toBe('gemini-json')
    })
  })

  it('an explicit format overrides what the content says, and a wrong one is a TypeError at the call', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 'f.jsonl')
      // Our records read as Claude's: still records (they have uuids), but nothing is detected.
      await writeFile(file, toJsonl(makeChain(3)))
      expect(await readSession(file, { format: 'claude-code' })).toMatchObject({
        format: 'claude-code',
        problems: [],
      })
      // A Claude line read as ours: not a record of ours.
      await writeFile(
        file,
        line({
          parentUuid: null,
          isSidechain: false,
          uuid: 'a',
          sessionId: 's',
          timestamp: 't',
          type: 'user',
        }),
      )
      const ours = await readSession(file, { format: 'sessiontape' })
      expect(ours.problems.map((p) => p.kind)).toEqual(['missing-envelope'])
      await expect(readSession(file, { format: 'claude' as never })).rejects.toThrow(TypeError)
      expect(() => streamRecords(file, { format: 'x' as never })).toThrow(
        /Expected `format` to be one of 'auto'/,
      )
    })
  })
})
