import fs from 'node:fs'
import path from 'node:path'

import { createRecorder, type RecorderOptions } from '../../../src/index.js'
import { repairTranscript } from '../../../src/index.js'
import { finished, startFixture } from '../run-fixture.js'
import { writeCorruptTranscript } from '../corrupt-transcript.js'
import type { Scenario } from './explore.js'
import { traceForeignCalls } from './foreign-calls.js'
import { recordingFs, Trace } from './trace.js'

const settle = (ms = 20): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** A session written and closed with ordinary calls: the durable starting point of a scenario. */
async function existingSession(
  dir: string,
  sessionId: string,
  count: number,
  options: Partial<RecorderOptions> = {},
) {
  const rec = createRecorder({ dir, sessionId, ...options })
  const uuids = Array.from({ length: count }, (_, i) => rec.record('user', { text: `earlier ${i}` }))
  await rec.close()
  return uuids
}

/** Runs `body` with a recorder writing through the tracing seam; the tail after `body` is not traced. */
async function traced(root: string, body: (trace: Trace) => Promise<void>): Promise<Trace> {
  const trace = new Trace(root)
  try {
    await body(trace)
  } finally {
    trace.stopped = true
  }
  return trace
}

// The records each scenario's setup wrote (a scenario runs once per exploration).
let resumedEarlier: string[] = []
let metaEarlier: string[] = []

const records = (file: string, uuids: readonly string[]) => ({ type: 'records', file, uuids }) as const

/**
 * The scenarios of issue 27, each small enough to explore exhaustively (a few records, a few flushes): the
 * states grow with the operations not yet durable at a crash point, not with the records.
 */
export const SCENARIOS: readonly Scenario[] = [
  {
    name: 'fresh session in a new tree (s/deep does not exist)',
    session: { dir: 's/deep', sessionId: 'fresh' },
    setup: async () => {},
    traced: (root) =>
      traced(root, async (trace) => {
        const dir = path.join(root, 's', 'deep')
        const rec = createRecorder({ dir, sessionId: 'fresh', meta: false, fs: recordingFs(trace) })
        const first = [rec.record('user', { text: 'hello' }), rec.record('assistant', { text: 'hi' })]
        await rec.flush()
        trace.ack('flush() resolved', records('s/deep/fresh.jsonl', first))
        const second = [rec.record('user', { text: 'more' })]
        await rec.flush()
        trace.ack('flush() resolved', records('s/deep/fresh.jsonl', [...first, ...second]))
        rec.record('assistant', { text: 'written, never flushed' })
        await settle()
        trace.stopped = true
        await rec.close()
      }),
  },
  {
    name: 'resume (a torn tail is quarantined, then records follow)',
    session: { dir: 'sessions', sessionId: 'resumed' },
    setup: async (root) => {
      const dir = path.join(root, 'sessions')
      resumedEarlier = await existingSession(dir, 'resumed', 2, { meta: false })
      fs.appendFileSync(path.join(dir, 'resumed.jsonl'), '{"uuid":"torn-by-a-crash","ty')
    },
    traced: (root) =>
      traced(root, async (trace) => {
        const earlier = resumedEarlier
        const dir = path.join(root, 'sessions')
        const rec = createRecorder({
          dir,
          sessionId: 'resumed',
          resume: true,
          meta: false,
          fs: recordingFs(trace),
        })
        const added = [rec.record('user', { text: 'after the resume' })]
        await rec.flush()
        trace.ack('flush() resolved', records('sessions/resumed.jsonl', [...earlier, ...added]))
        added.push(rec.record('assistant', { text: 'and more' }))
        await rec.close()
        trace.ack('close() resolved', records('sessions/resumed.jsonl', [...earlier, ...added]))
      }),
  },
  {
    name: 'delete and recreate (the transcript is deleted under a live recorder)',
    session: { dir: 'sessions', sessionId: 'recreated' },
    setup: (root) => {
      fs.mkdirSync(path.join(root, 'sessions'))
      return Promise.resolve()
    },
    traced: (root) =>
      traced(root, async (trace) => {
        const dir = path.join(root, 'sessions')
        const file = path.join(dir, 'recreated.jsonl')
        const rec = createRecorder({
          dir,
          sessionId: 'recreated',
          meta: false,
          fileCheckIntervalMs: 0,
          onError: () => {},
          fs: recordingFs(trace),
        })
        rec.record('user', { text: 'before the delete' })
        await rec.flush()
        // The user deletes the transcript (not the recorder: traced by hand). What it held went with it.
        fs.unlinkSync(file)
        trace.push({ kind: 'unlink', path: 'sessions/recreated.jsonl' })
        const after = [rec.record('user', { text: 'after the delete' })]
        await rec.flush()
        trace.ack('flush() resolved after the recreate', records('sessions/recreated.jsonl', after))
        trace.stopped = true
        await rec.close()
      }),
  },
  {
    name: 'sidecar update (a resumed session closes: its meta sidecar is replaced by a rename)',
    session: { dir: 'sessions', sessionId: 'with-meta' },
    setup: async (root) => {
      metaEarlier = await existingSession(path.join(root, 'sessions'), 'with-meta', 2)
    },
    traced: (root) =>
      traced(root, async (trace) => {
        const earlier = metaEarlier
        const undo = traceForeignCalls(trace, (p) => p.includes('.meta.json'))
        try {
          const rec = createRecorder({
            dir: path.join(root, 'sessions'),
            sessionId: 'with-meta',
            resume: true,
            metaDebounceMs: 5,
            fs: recordingFs(trace),
          })
          const added = [rec.record('user', { text: 'one' }), rec.record('assistant', { text: 'two' })]
          await rec.close()
          trace.ack('close() resolved', records('sessions/with-meta.jsonl', [...earlier, ...added]))
          trace.ack('close() resolved', {
            type: 'sidecar',
            file: 'sessions/.sessiontape/with-meta.meta.json',
            recordCount: earlier.length + added.length,
          })
        } finally {
          undo()
        }
      }),
  },
  {
    name: 'repair into a copy (a damaged transcript, no sidecar directory yet)',
    session: null,
    setup: async (root) => {
      fs.mkdirSync(path.join(root, 'sessions'))
      await writeCorruptTranscript(path.join(root, 'sessions', 'damaged.jsonl'))
    },
    traced: (root) =>
      traced(root, async (trace) => {
        const undo = traceForeignCalls(trace, () => true)
        try {
          const repair = await repairTranscript(path.join(root, 'sessions', 'damaged.jsonl'))
          trace.ack('repairTranscript() returned', {
            type: 'copy',
            file: trace.rel(repair.outPath!)!,
            records: repair.records,
          })
        } finally {
          undo()
        }
      }),
  },
  {
    name: 'exit drain (records queued at process.exit(), fsync: batch, in a new tree)',
    session: { dir: 'exit/deep', sessionId: 'exit-drain' },
    setup: async () => {},
    traced: async (root) => {
      const out = path.join(path.dirname(root), 'exit-trace.json')
      const result = await finished(startFixture('crash-states-exit-drain', [root, out]))
      if (result.code !== 0) throw new Error(`the exit-drain child failed: ${result.stderr}`)
      return Trace.fromJSON(root, JSON.parse(fs.readFileSync(out, 'utf8')) as Array<Record<string, unknown>>)
    },
  },
]
