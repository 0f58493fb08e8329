import { execFileSync } from 'node:child_process'
import { readFile, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { detectFormat, readSession } from '../src/index.js'
import { withTempDir } from './helpers/records.js'

const THREAD = '9e8d7c6b-5a49-4382-b1a0-f9e8d7c6b5a4'
const COMPRESSED = path.join(
  import.meta.dirname,
  `fixtures/formats/codex-sessions/2026/05/11/rollout-2026-05-11T09-00-00-${THREAD}.jsonl.zst`,
)

/** A zstd frame written by hand: header, then one raw block per piece (the last one marked last). */
function rawFrame(pieces: readonly Buffer[], windowLog = 17): Buffer {
  const header = Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, (windowLog - 10) << 3])
  const blocks = pieces.map((piece, i) => {
    const value = (i === pieces.length - 1 ? 1 : 0) | (piece.length << 3)
    return Buffer.concat([Buffer.from([value & 0xff, (value >> 8) & 0xff, (value >> 16) & 0xff]), piece])
  })
  return Buffer.concat([header, ...blocks])
}

const line = (value: unknown): string => `${JSON.stringify(value)}\n`
const at = '2026-05-11T07:00:00.000Z'
const meta = line({ timestamp: at, type: 'session_meta', payload: { id: THREAD } })
const item = (text: string): string =>
  line({ timestamp: at, type: 'response_item', payload: { type: 'message', role: 'user', text } })

describe('compressed Codex rollouts (.jsonl.zst) are read as if they were not', () => {
  it('records, uuids (named by the rollout id, not the .zst) and format are those of the plain file', async () => {
    const session = await readSession(COMPRESSED)
    expect(await detectFormat(COMPRESSED)).toBe('codex-cli')
    expect(session.problems).toEqual([])
    expect(session.records.map((r) => r.uuid)).toEqual([`${THREAD}:1`, `${THREAD}:2`, `${THREAD}:3`])
    expect(session.records[1]!.payload).toMatchObject({ role: 'user' })
    // Never written: reading leaves the file as it was.
    const before = await stat(COMPRESSED)
    await readSession(COMPRESSED)
    expect((await stat(COMPRESSED)).mtimeMs).toBe(before.mtimeMs)
  })

  it('a frame split into many blocks and several frames read as one stream, lines cut across blocks', async () => {
    await withTempDir(async (dir) => {
      const text = Buffer.from(meta + item('a') + item('b'))
      const file = path.join(dir, `rollout-2026-01-01T00-00-00-${THREAD}.jsonl.zst`)
      const third = Math.floor(text.length / 3)
      await writeFile(
        file,
        Buffer.concat([
          rawFrame([text.subarray(0, 7), text.subarray(7, third)]),
          rawFrame([text.subarray(third, 2 * third), text.subarray(2 * third)]),
        ]),
      )
      const session = await readSession(file)
      expect(session.problems).toEqual([])
      expect(session.records).toHaveLength(3)
    })
  })

  it('a cut-off compressed file keeps the records before the cut and reports it; a huge window is refused, not allocated', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, `rollout-2026-01-01T00-00-00-${THREAD}.jsonl.zst`)
      const whole = rawFrame([Buffer.from(meta + item('a')), Buffer.from(item('b'))])
      await writeFile(file, whole.subarray(0, whole.length - 10))
      const cut = await readSession(file, { format: 'codex-cli' })
      expect(cut.records).toHaveLength(2)
      expect(cut.problems.map((p) => p.kind)).toEqual(['torn-tail'])
      expect(cut.problems[0]!.detail).toContain('ends inside a block')
      // A frame asking for a 1 GiB window (zstd's own default limit is 128 MiB).
      await writeFile(file, rawFrame([Buffer.from(meta)], 30))
      const huge = await readSession(file, { format: 'codex-cli' })
      expect(huge.records).toEqual([])
      expect(huge.problems.map((p) => p.kind)).toEqual(['too-long'])
      // Bytes that are not zstd at all.
      await writeFile(file, 'not zstd\n')
      expect((await readSession(file, { format: 'codex-cli' })).problems.map((p) => p.kind)).toEqual([
        'torn-tail',
      ])
    })
  })

  it.skipIf(!hasZstd())('reads what the zstd tool writes, at every level and with checksums', async () => {
    await withTempDir(async (dir) => {
      const plain = path.join(dir, `rollout-2026-01-01T00-00-00-${THREAD}.jsonl`)
      await writeFile(plain, meta + Array.from({ length: 2000 }, (_, i) => item(`message ${i}`)).join(''))
      for (const level of ['-1', '-19']) {
        execFileSync('zstd', ['-q', '-f', level, '--check', plain, '-o', `${plain}.zst`])
        const session = await readSession(`${plain}.zst`)
        expect(session.problems).toEqual([])
        expect(session.records).toHaveLength(2001)
        expect(JSON.stringify(session.records.map((r) => r.payload))).toBe(
          JSON.stringify((await readSession(plain)).records.map((r) => r.payload)),
        )
      }
      expect((await readFile(plain)).length).toBeGreaterThan(0)
    })
  })
})

function hasZstd(): boolean {
  try {
    execFileSync('zstd', ['--version'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}
