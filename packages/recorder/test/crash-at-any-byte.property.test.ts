import { readFile, truncate } from 'node:fs/promises'
import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { activeBranch, createRecorder, inspectTailSync, readSession } from '../src/index.js'
import { withTempDir } from './helpers/records.js'
import { filesIn } from './helpers/sessions.js'
import { LONG_WORK_TEST_TIMEOUT_MS } from './helpers/timeouts.js'

// Raised for this file: see helpers/timeouts.ts (a hang detector, not a bound on speed).
vi.setConfig({ testTimeout: LONG_WORK_TEST_TIMEOUT_MS, hookTimeout: LONG_WORK_TEST_TIMEOUT_MS })

const NEWLINE = 0x0a

/** Text that stresses the reader: quotes, `}{`, escaped newlines, U+2028, NUL, emoji. */
const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom('}{', '"}{"uuid":"x"}', 'line\nbreak', '\u2028\u2029', '\0\0', '{"uuid":', '😀'.repeat(30)),
)
const entry = fc.record({
  type: fc.constantFrom('user', 'assistant', 'tool_result', 'x-from-the-future'),
  data: fc.record({ text, n: fc.integer() }, { requiredKeys: ['text'] }),
})
const session = fc.array(entry, { minLength: 1, maxLength: 12 })
/**
 * Where the crash lands: a fraction of the file size, optionally snapped to the nearest line end and
 * nudged by a byte or two, so cuts right before and after a newline are tried as often as cuts mid-line;
 * or the first few bytes, where a torn first record must still read as ours (a cut one byte in once read
 * back as a Gemini document, found here 1 run in ~20 when only fractions were drawn).
 */
const crashPoint = fc.oneof(
  fc.record({
    fraction: fc.double({ min: 0, max: 1, noNaN: true }),
    snap: fc.boolean(),
    nudge: fc.integer({ min: -2, max: 2 }),
  }),
  fc.record({ bytesIn: fc.integer({ min: 0, max: 3 }) }),
)
type CrashPoint = { fraction: number; snap: boolean; nudge: number } | { bytesIn: number }

function crashOffset(bytes: Buffer, point: CrashPoint): number {
  if ('bytesIn' in point) return Math.min(point.bytesIn, bytes.length)
  const { fraction, snap, nudge } = point
  const raw = Math.round(fraction * bytes.length)
  if (!snap) return raw
  const next = bytes.indexOf(NEWLINE, raw)
  const end = next === -1 ? bytes.length : next + 1
  return Math.min(bytes.length, Math.max(0, end + nudge))
}

/** End of the last complete line at or before `offset`. */
function lineBoundary(bytes: Buffer, offset: number): number {
  return offset === 0 ? 0 : bytes.lastIndexOf(NEWLINE, offset - 1) + 1
}

describe('crash at any byte: the transcript reads back as a prefix, and resume appends cleanly', () => {
  it('holds for any sequence of records and any truncation point', async () => {
    await fc.assert(
      fc.asyncProperty(session, crashPoint, async (entries, point) => {
        await withTempDir(async (dir) => {
          const writer = createRecorder({ dir, sessionId: 'prop', fsync: 'never', meta: false })
          for (const { type, data } of entries) writer.record(type, data)
          await writer.close()
          const file = writer.filePath
          const bytes = await readFile(file)
          const full = await readSession(file)
          expect(full.problems).toEqual([])
          expect(full.records).toHaveLength(entries.length)

          // The crash: everything after `offset` never reached the disk.
          const offset = crashOffset(bytes, point)
          await truncate(file, offset)
          const boundary = lineBoundary(bytes, offset)
          const kept = bytes.subarray(0, boundary).filter((b) => b === NEWLINE).length
          const torn = offset > boundary

          const crashed = await readSession(file)
          expect(crashed.records).toEqual(full.records.slice(0, kept))
          expect(crashed.problems.map((p) => p.kind)).toEqual(torn ? ['torn-tail'] : [])
          // A crash right before a newline leaves a whole record lacking only its newline: resume keeps it.
          const whole = torn && bytes[offset] === NEWLINE
          const tail = inspectTailSync(file)
          if (whole) {
            expect(tail).toMatchObject({ validLength: offset, tornBytes: 0 })
            expect(tail.lastRecord?.uuid).toBe(full.records[kept]!.uuid)
          } else {
            expect(tail).toMatchObject({ validLength: boundary, tornBytes: offset - boundary })
            expect(tail.lastRecord?.uuid ?? null).toBe(crashed.lastUuid)
          }
          const beforeResume = await readFile(file)

          const resumed = createRecorder({
            dir,
            sessionId: 'prop',
            resume: true,
            fsync: 'never',
            meta: false,
          })
          const added = resumed.record('user', { text: 'after the crash' })
          await resumed.close()

          // Append-only: the file before the resume is a prefix of the file after it.
          const afterBytes = await readFile(file)
          expect(afterBytes.subarray(0, beforeResume.length)).toEqual(beforeResume)
          const after = await readSession(file)
          expect(after.problems).toEqual([])
          const keptAfter = whole ? kept + 1 : kept
          expect(after.records.slice(0, keptAfter)).toEqual(full.records.slice(0, keptAfter))
          const appended = after.records.slice(keptAfter)
          if (whole) {
            expect(appended).toMatchObject([
              { uuid: added, type: 'user', parentUuid: full.records[kept]!.uuid },
            ])
          } else if (torn) {
            expect(appended.map((r) => r.type)).toEqual(['recovered', 'user'])
            expect(appended[0]).toMatchObject({
              parentUuid: crashed.lastUuid,
              tornOffset: boundary,
              tornLength: offset - boundary,
            })
            // `recovered` is metadata, never a parent: the chain goes on from the last record kept.
            expect(appended[1]).toMatchObject({ uuid: added, parentUuid: crashed.lastUuid })
          } else {
            expect(appended).toMatchObject([{ uuid: added, type: 'user', parentUuid: crashed.lastUuid }])
          }
          expect(await filesIn(dir)).toEqual(['prop.jsonl'])
          const branch = activeBranch(after.records)
          expect(branch.gaps).toEqual([])
          // The `recovered` record hangs off the chain (metadata): the branch is every other record.
          expect(branch.records).toEqual(after.records.filter((r) => r.type !== 'recovered'))
        })
      }),
      { numRuns: 150 },
    )
    // 150 sessions written, cut and resumed: 7–18 s on the shared 2-core machine at load 20, 20 s the default.
  })
})
