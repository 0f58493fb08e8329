import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCliWith } from './helpers/cli.js'
import { makeRecord, toJsonl, withTempDir } from '../../recorder/test/helpers/records.js'

async function agentSession(dir: string): Promise<string> {
  const file = path.join(dir, 's1.jsonl')
  await writeFile(
    file,
    toJsonl([
      makeRecord(0, null, { type: 'user', text: 'Read the config' }),
      makeRecord(1, 'u0', {
        type: 'assistant',
        text: 'Reading it.',
        toolCall: { tool: 'read_file', path: 'config.json' },
      }),
      makeRecord(2, 'u1', { type: 'tool_result', text: undefined, tool: 'read_file', ok: true, bytes: 42 }),
      makeRecord(3, 'u2', { type: 'telemetry', text: undefined, spans: [1, 2], nested: { a: null } }),
    ]),
  )
  return file
}

describe('show renders every record type readably; colour only on a terminal', () => {
  it('shows text first, then every other field, unknown types as compact JSON', async () => {
    await withTempDir(async (dir) => {
      const file = await agentSession(dir)
      const { code, stdout } = await runCliWith({}, 'show', '--raw', file)
      expect(code).toBe(0)
      expect(stdout.split('\n').slice(3)).toEqual([
        '── line 1 · 2026-01-01 00:00:00Z · user · u0',
        '   Read the config',
        '── line 2 · 2026-01-01 00:00:01Z · assistant · u1',
        '   Reading it.',
        '   toolCall: {"tool":"read_file","path":"config.json"}',
        '── line 3 · 2026-01-01 00:00:02Z · tool_result · u2',
        '   tool: read_file',
        '   ok: true',
        '   bytes: 42',
        '── line 4 · 2026-01-01 00:00:03Z · telemetry · u3',
        '   spans: [1,2]',
        '   nested: {"a":null}',
        '',
      ])
    })
  })

  it.for([
    { name: 'not a terminal', env: {}, colour: false },
    { name: 'FORCE_COLOR=1', env: { FORCE_COLOR: '1' }, colour: true },
    { name: 'NO_COLOR wins over FORCE_COLOR', env: { FORCE_COLOR: '1', NO_COLOR: '1' }, colour: false },
  ])('colour: $name', async ({ env, colour }) => {
    await withTempDir(async (dir) => {
      const file = await agentSession(dir)
      for (const args of [
        ['show', file],
        ['tail', file],
        ['verify', file],
      ]) {
        const { stdout } = await runCliWith({ env }, ...args)
        expect(stdout.includes('\u001b['), args.join(' ')).toBe(colour && args[0] !== 'verify')
      }
      // --json is never coloured.
      const { stdout } = await runCliWith({ env }, 'show', '--json', file)
      expect(stdout).not.toContain('\u001b[')
    })
  })
})
