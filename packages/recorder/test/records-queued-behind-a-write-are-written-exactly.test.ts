import fs from 'node:fs'

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'

import { createRecorder } from '../src/index.js'
import { errno, fakeFs } from './helpers/fake-fs.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'

const KiB = 1024
const MAX_WRITE = 64 * KiB
const tick = () => new Promise((resolve) => setImmediate(resolve))

const ENVELOPE = new Set(['uuid', 'parentUuid', 'sessionId', 'timestamp', 'type', 'v'])

/**
 * The transcript's records without their envelopes, after checking that every line is byte for byte what
 * JSON.stringify makes of it and no record is there twice; and its lines.
 */
function writtenExactly(filePath: string): { data: Array<Record<string, unknown>>; lines: string[] } {
  const records = readTranscript(filePath)
  expect(new Set(records.map((record) => record.uuid)).size).toBe(records.length)
  const text = fs.readFileSync(filePath, 'utf8')
  const lines = text.length === 0 ? [] : text.slice(0, -1).split('\n')
  expect(lines.map((line) => JSON.stringify(JSON.parse(line)))).toEqual(lines)
  const data = records.map((record) =>
    Object.fromEntries(Object.entries(record).filter(([key]) => !ENVELOPE.has(key))),
  )
  return { data, lines }
}

/**
 * A recorder whose first write of every `holdEvery` waits until released: bursts pile up behind it, as behind
 * a slow disk. `release()` lets the write held go; `flushAndClose()` releases held writes until everything
 * recorded is flushed, then closes. `sizes`: the length of every write.
 */
async function recorderBehindHeldWrites(holdEvery: number) {
  const dir = await tempDir()
  const sizes: number[] = []
  let held: (() => void) | null = null
  const seam = fakeFs({
    overrides: {
      write: (real) => async (fd, buffer, offset, length) => {
        sizes.push(length)
        if (sizes.length % holdEvery === 1) await new Promise<void>((resolve) => (held = resolve))
        return real(fd, buffer, offset, length)
      },
    },
  })
  const rec = createRecorder({ dir, fs: seam, fsync: 'never', meta: false, maxWriteBytes: MAX_WRITE })
  await rec.ready()
  const release = () => {
    const go = held
    held = null
    go?.()
  }
  const flushAndClose = async () => {
    const flushed = rec.flush()
    while (!(await Promise.race([flushed.then(() => true), tick().then(() => false)]))) release()
    await rec.close()
  }
  return { rec, sizes, release, flushAndClose }
}

// Records waiting behind a write in flight are encoded ahead of their write, in a task after the caller's
// turn (so they do not stay alive as strings): what reaches the file must be the same bytes, in the same
// order, each write within maxWriteBytes, and the queue's counts the same as before they were encoded.
describe('records queued behind a write in flight are written exactly, in order', () => {
  it('bursts of small records among records holding long strings: byte-exact lines, counts kept, writes bounded', async () => {
    const dir = await tempDir()
    const sizes: number[] = []
    let firstWriteStarted!: () => void
    const started = new Promise<void>((resolve) => (firstWriteStarted = resolve))
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    const seam = fakeFs({
      overrides: {
        write: (real) => async (fd, buffer, offset, length) => {
          sizes.push(length)
          if (sizes.length === 1) {
            firstWriteStarted()
            await released
          }
          return real(fd, buffer, offset, length)
        },
      },
    })
    const rec = createRecorder({ dir, fs: seam, fsync: 'never', meta: false, maxWriteBytes: MAX_WRITE })
    await rec.ready()
    const expected: Array<Record<string, unknown>> = [{ first: true }]
    rec.record('first', expected[0])
    await started
    // Held while the first write is in flight: bursts of small records (quotes, non-ASCII, a pair and lone
    // surrogates: bytes that UTF-8 and JSON escaping both change) with a record holding a long string in
    // the middle of each, a few loop turns apart so the queue encodes some runs ahead and not others.
    for (let burst = 0; burst < 6; burst++) {
      for (let i = 0; i < 120; i++) {
        const data =
          i === 60
            ? { burst, base64: String.fromCharCode(65 + burst).repeat(100 * KiB) }
            : { burst, i, text: `turn ${i} "quoted" \\ café 日本 😀 \ud800 ${'x'.repeat(i * 7)}` }
        expected.push(data)
        rec.record(i === 60 ? 'tool_result' : 'chat', data)
      }
      await tick()
      await tick()
    }
    // Then small bursts, each encoded on its own: several of them go out in one write.
    for (let burst = 0; burst < 20; burst++) {
      for (let i = 0; i < 10; i++) {
        const data = { burst, i, text: `small ${i} ✓` }
        expected.push(data)
        rec.record('chat', data)
      }
      await tick()
      await tick()
    }
    // Nothing is written yet (the first write is held): the count covers each line (held strings counted
    // raw, and these need no escaping), the newline included.
    const queued = rec.stats()
    expect(queued.pendingRecords).toBe(expected.length)
    release()
    await rec.flush()
    await rec.close()

    // The bytes are what JSON.stringify makes (the lone surrogate escaped as \ud800).
    const { data, lines } = writtenExactly(rec.filePath)
    expect(data).toEqual(expected)
    expect(queued.pendingChars).toBe(lines.reduce((sum, line) => sum + line.length + 1, 0))
    expect(Math.max(...sizes)).toBeLessThanOrEqual(MAX_WRITE)
    expect(rec.stats()).toMatchObject({ pendingRecords: 0, pendingChars: 0, persisted: expected.length })
  })

  // Chat: no big record ahead, only the write in flight (and the read that checks the file before the next
  // one). The records queued meanwhile are encoded ahead too; the file must not tell.
  it('bursts of small records behind a write in flight, nothing big ahead: byte-exact lines, counts kept, writes bounded', async () => {
    // Every third write waits a few loop turns.
    const { rec, sizes, release, flushAndClose } = await recorderBehindHeldWrites(3)
    const expected: Array<Record<string, unknown>> = []
    for (let burst = 0; burst < 40; burst++) {
      for (let i = 0; i < 50; i++) {
        const data = {
          burst,
          i,
          text: `turn ${i} "quoted" \\ café 日本 😀 \udc00 ${'y'.repeat((burst * 13 + i) % 400)}`,
        }
        expected.push(data)
        rec.record(i % 2 === 0 ? 'user' : 'assistant', data)
      }
      if (burst % 4 === 3) release()
      await tick()
      await tick()
    }
    await flushAndClose()

    expect(writtenExactly(rec.filePath).data).toEqual(expected)
    expect(Math.max(...sizes)).toBeLessThanOrEqual(MAX_WRITE)
    // Batched: far fewer writes than bursts' worth of records.
    expect(sizes.length).toBeLessThan(expected.length / 10)
    expect(rec.stats()).toMatchObject({ pendingRecords: 0, pendingChars: 0, persisted: expected.length })
  })

  // Bursts of hundreds of records behind a write in flight, packed ahead between turns; and record() called
  // from inside the walk of a record handed over (a getter of its data), while records behind it are packed.
  it('long bursts behind a write in flight, and records made from inside a handed-over record being walked: byte-exact, in order', async () => {
    const { rec, sizes, release, flushAndClose } = await recorderBehindHeldWrites(2)
    const expected: Array<Record<string, unknown>> = []
    let walked = 0
    for (let burst = 0; burst < 12; burst++) {
      for (let i = 0; i < 300; i++) {
        if (i === 150) {
          const handed = {
            burst,
            handed: true,
            // Read when the record is walked, in a later turn: it records 70 more records from in there.
            get inner() {
              walked++
              for (let k = 0; k < 70; k++) {
                const data = { burst, inner: k, text: `from the walk ${k} "é" ${'z'.repeat(k * 7)}` }
                expected.push(data)
                rec.record('note', data)
              }
              return 'read'
            },
          }
          expected.push({ burst, handed: true, inner: 'read' })
          rec.record('tool_result', handed, { handOver: true })
          continue
        }
        const data = { burst, i, text: `turn ${i} "quoted" \\ café 😀 ${'y'.repeat((burst * 31 + i) % 300)}` }
        expected.push(data)
        rec.record(i % 2 === 0 ? 'user' : 'assistant', data)
      }
      if (burst % 3 === 2) release()
      await tick()
    }
    await flushAndClose()

    // Every record handed over was walked (the walk reads a small container's getter twice: once to size it).
    expect(walked).toBeGreaterThanOrEqual(12)
    // `expected` is in the order of the record() calls, the walk's among them: the file's order.
    expect(writtenExactly(rec.filePath).data).toEqual(expected)
    expect(Math.max(...sizes)).toBeLessThanOrEqual(MAX_WRITE)
    expect(rec.stats()).toMatchObject({ pendingRecords: 0, pendingChars: 0, persisted: expected.length })
  })

  // Any mix of what the queue meets: bursts of records of every kind the queue treats apart (small ones it
  // encodes ahead into packs, ones too big for a pack, ones bigger than a third of a write, ones holding a
  // long string, ones handed over), loop turns between them, writes that land but answer late, reach the
  // file only a few turns later, land in part or fail with EAGAIN first, and flushSync() taking over while a write is in flight (its buffer must never
  // be reused). The file must hold every record once, in order, byte for byte as JSON.stringify writes it.
  it('any mix of bursts, slow, partial and failing writes and flushSync(): every record once, in order, byte-exact', async () => {
    const text = fc.oneof(
      fc.string({ maxLength: 60 }),
      fc.string({ unit: 'grapheme', maxLength: 30 }),
      fc.constantFrom('"quoted" \\ café 日本 😀', '\ud800 lone', 'line\nbreak\u2028'),
    )
    const record = fc.oneof(
      { weight: 8, arbitrary: fc.record({ kind: fc.constant('small' as const), text }) },
      {
        weight: 2,
        arbitrary: fc.record({
          kind: fc.constant('sized' as const),
          text,
          // From a few KiB (packable) past a third of the smaller writes (then written in slices).
          length: fc.integer({ min: 1_000, max: 30_000 }),
        }),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          kind: fc.constant('held' as const),
          length: fc.integer({ min: 66_000, max: 90_000 }),
        }),
      },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('handed-over' as const), text }) },
    )
    const step = fc.oneof(
      {
        weight: 4,
        arbitrary: fc.record({
          kind: fc.constant('burst' as const),
          records: fc.array(record, { maxLength: 40 }),
        }),
      },
      {
        weight: 3,
        arbitrary: fc.record({ kind: fc.constant('turns' as const), count: fc.integer({ min: 1, max: 3 }) }),
      },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('flushSync' as const) }) },
    )
    const writeAction = fc.constantFrom('land', 'land', 'answer-late', 'land-late', 'part', 'eagain')
    const scenario = fc.record({
      // The default (4 MiB) too: a reused buffer bigger than a pack is then handed to packing.
      maxWriteBytes: fc.constantFrom(1024, 8 * KiB, 64 * KiB, 4 * 1024 * KiB),
      steps: fc.array(step, { minLength: 1, maxLength: 16 }),
      writes: fc.array(writeAction, { minLength: 1, maxLength: 24 }),
    })

    await fc.assert(
      fc.asyncProperty(scenario, async ({ maxWriteBytes, steps, writes: plan }) => {
        const dir = await tempDir()
        // A copy: the run rewrites its entries (an EAGAIN happens once), and fast-check shrinks from its own.
        const writes = [...plan]
        let call = 0
        const seam = fakeFs({
          overrides: {
            write: (real) => async (fd, buffer, offset, length) => {
              const action = writes[call++ % writes.length]!
              if (action === 'eagain') {
                // Once per scheduled failure: the retry of the same call lands.
                writes[(call - 1) % writes.length] = 'land'
                throw errno('EAGAIN')
              }
              // Handed over, but reaching the file only a few turns later (a busy threadpool): the bytes written
              // are the buffer's then, so a buffer reused meanwhile (packing into it) shows in the file.
              if (action === 'land-late') for (let i = 0; i < 3; i++) await tick()
              const written = await real(
                fd,
                buffer,
                offset,
                action === 'part' ? Math.ceil(length / 2) : length,
              )
              // Landed, answered a few turns later: a flushSync() meanwhile takes the write over.
              if (action === 'answer-late') for (let i = 0; i < 3; i++) await tick()
              return written
            },
          },
        })
        const rec = createRecorder({ dir, fs: seam, fsync: 'never', meta: false, maxWriteBytes })
        await rec.ready()
        const expected: Array<Record<string, unknown>> = []
        let n = 0
        for (const s of steps) {
          if (s.kind === 'turns') for (let i = 0; i < s.count; i++) await tick()
          else if (s.kind === 'flushSync') {
            try {
              rec.flushSync()
            } catch {
              // Refused (a write of the loop still unanswered past the bound): the loop writes them.
            }
          } else {
            for (const r of s.records) {
              const data =
                r.kind === 'small' || r.kind === 'handed-over'
                  ? { n: n++, text: r.text }
                  : r.kind === 'sized'
                    ? { n: n++, text: r.text, pad: 'é"x'.repeat(Math.ceil(r.length / 3)).slice(0, r.length) }
                    : { n: n++, held: String.fromCharCode(97 + (n % 26)).repeat(r.length) }
              expected.push(data)
              rec.record('chat', data, r.kind === 'handed-over' ? { handOver: true } : undefined)
            }
          }
        }
        await rec.flush()
        await rec.close()

        expect(writtenExactly(rec.filePath).data).toEqual(expected)
        expect(rec.stats()).toMatchObject({ pendingRecords: 0, pendingChars: 0, persisted: expected.length })
        fs.rmSync(dir, { recursive: true, force: true })
      }),
      { numRuns: 60 },
    )
  })
})
