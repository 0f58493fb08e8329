import fs from 'node:fs'
import fsp from 'node:fs/promises'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'

import sonicBoom, { type SonicBoom as SonicBoomClass } from 'sonic-boom'

import { createRecorder } from '../src/index.js'
import { envelopeLine } from './records.js'

/** One way of recording: `write()` is what the caller does per record; `finish()` waits for the end. */
export interface Writer {
  /**
   * `handOver`: the caller will not change `data` afterwards (the workloads pass it for their big records).
   * Only `ours-handover` makes use of it, as `record()`'s `{ handOver: true }`; the others ignore it.
   */
  write(type: string, data: object, handOver: boolean): void
  /** Resolves when everything written is where this writer promises it (flushed / synced). */
  finish(): Promise<void>
  /** Cleanup outside the measured phase. */
  close(): Promise<void>
}

export const VARIANTS = [
  'ours',
  'ours-handover',
  'ours-never',
  'ours-queue-256m',
  'ours-base',
  'ours-base-handover',
  'appendFileSync',
  'promise-chain',
  'createWriteStream',
  'sonic-boom',
  'stringify-only',
  'worker-offload',
] as const
export type Variant = (typeof VARIANTS)[number]

/**
 * `ours-base` and `ours-base-handover`: `ours` and `ours-handover` with another build of the recorder — the
 * package directory named by WRITE_BENCH_BASE (a checkout of an earlier commit: `git archive <rev>
 * packages/recorder | tar -x`, with a node_modules beside its package.json), so that a change is measured
 * against the code before it in the same run. Default options only (an older build may lack newer ones).
 */
export const BASE_VARIANTS: ReadonlySet<Variant> = new Set(['ours-base', 'ours-base-handover'])
const BASE_DIR = process.env.WRITE_BENCH_BASE

async function baseRecorder(): Promise<typeof createRecorder> {
  if (BASE_DIR === undefined)
    throw new TypeError('ours-base needs WRITE_BENCH_BASE: a recorder package directory')
  const url = pathToFileURL(path.resolve(BASE_DIR, 'src/index.ts')).href
  return ((await import(url)) as { createRecorder: typeof createRecorder }).createRecorder
}

const SESSION = 'bench-session'
// sonic-boom is CommonJS; its module object is the class and also carries it as `.SonicBoom`.
const SonicBoom = (sonicBoom as unknown as { SonicBoom: typeof SonicBoomClass }).SonicBoom

export async function openWriter(variant: Variant, dir: string): Promise<Writer> {
  const file = path.join(dir, `${SESSION}.jsonl`)
  let parent: string | null = null
  const line = (type: string, data: object): string => {
    const built = envelopeLine(SESSION, parent, type, data)
    parent = built.uuid
    return built.line
  }
  switch (variant) {
    case 'ours-base':
    case 'ours-base-handover': {
      const create = await baseRecorder()
      const rec = create({ dir, sessionId: SESSION })
      await rec.ready()
      const handing = variant === 'ours-base-handover'
      return {
        write: (type, data, handOver) =>
          void (handing && handOver ? rec.record(type, data, { handOver: true }) : rec.record(type, data)),
        finish: async () => void (await rec.flush()),
        close: () => rec.close(),
      }
    }
    case 'ours':
    case 'ours-handover':
    case 'ours-never':
    case 'ours-queue-256m': {
      const rec = createRecorder({
        dir,
        sessionId: SESSION,
        ...(variant === 'ours-never' ? { fsync: 'never' } : {}),
        // A 100 MB record is more than the default maxQueueChars (64 Mi code units) on its own: while it is
        // written, every record() after it finds the queue over the bound and the overflow policy drains it
        // synchronously. This variant gives the queue room for it.
        ...(variant === 'ours-queue-256m' ? { maxQueueChars: 256 * 1024 * 1024 } : {}),
      })
      await rec.ready()
      // Default options, like `ours`; only the records the workload hands over are recorded differently.
      const handing = variant === 'ours-handover'
      return {
        write: (type, data, handOver) =>
          void (handing && handOver ? rec.record(type, data, { handOver: true }) : rec.record(type, data)),
        finish: async () => void (await rec.flush()),
        close: () => rec.close(),
      }
    }
    case 'appendFileSync': {
      // The pattern agent CLIs ship: make sure the directory exists, then append, per record.
      const sessionDir = path.join(dir, 'sessions')
      const target = path.join(sessionDir, `${SESSION}.jsonl`)
      return {
        write: (type, data) => {
          if (!fs.existsSync(sessionDir)) fs.mkdirSync(sessionDir, { recursive: true })
          fs.appendFileSync(target, line(type, data))
        },
        finish: () => Promise.resolve(),
        close: () => Promise.resolve(),
      }
    }
    case 'promise-chain': {
      let chain: Promise<void> = Promise.resolve()
      return {
        write: (type, data) => {
          const text = line(type, data)
          chain = chain.then(() => fsp.appendFile(file, text))
        },
        finish: () => chain,
        close: () => Promise.resolve(),
      }
    }
    case 'createWriteStream': {
      const stream = fs.createWriteStream(file, { flags: 'a' })
      await new Promise<void>((resolve) => stream.once('ready', () => resolve()))
      return {
        write: (type, data) => void stream.write(line(type, data)),
        finish: () =>
          new Promise<void>((resolve, reject) =>
            stream.end((error?: Error | null) => (error ? reject(error) : resolve())),
          ),
        close: () => Promise.resolve(),
      }
    }
    case 'sonic-boom': {
      const sonic = new SonicBoom({ dest: file, append: true, sync: false })
      await new Promise<void>((resolve) => sonic.once('ready', () => resolve()))
      return {
        write: (type, data) => void sonic.write(line(type, data)),
        // sonic-boom's flush drains its buffer and then fsyncs.
        finish: () =>
          new Promise<void>((resolve, reject) =>
            sonic.flush((error?: Error) => (error ? reject(error) : resolve())),
          ),
        close: () =>
          new Promise<void>((resolve) => {
            sonic.once('close', () => resolve())
            sonic.end()
          }),
      }
    }
    case 'worker-offload': {
      // LangSmith's shape: postMessage structured-clones the data on the caller's thread; a worker builds the
      // line (JSON.stringify, with the same envelope) and appends it. finish() waits for the worker to answer
      // a message sent after the last record (messages are handled in order); no fsync, like the streams.
      const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, sessionId: SESSION } })
      await new Promise<void>((resolve) => worker.once('online', () => resolve()))
      return {
        write: (type, data) => worker.postMessage({ type, data }),
        finish: () =>
          new Promise<void>((resolve) => {
            worker.once('message', () => resolve())
            worker.postMessage({ flush: true })
          }),
        close: async () => void (await worker.terminate()),
      }
    }
    case 'stringify-only': {
      let sink = 0
      return {
        write: (type, data) => {
          sink += line(type, data).length
        },
        finish: () => Promise.resolve(),
        close: () => Promise.resolve(void sink),
      }
    }
  }
}

// The worker of the `worker-offload` variant (CommonJS, evaluated as a script: no loader needed).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const { randomUUID } = require('node:crypto')
const fs = require('node:fs')
const fd = fs.openSync(workerData.file, 'a')
let parentUuid = null
parentPort.on('message', (message) => {
  if (message.flush) return parentPort.postMessage('flushed')
  const uuid = randomUUID()
  const line = JSON.stringify({
    uuid, parentUuid, sessionId: workerData.sessionId, timestamp: new Date().toISOString(),
    type: message.type, v: 1, ...message.data,
  }) + '\\n'
  parentUuid = uuid
  fs.writeSync(fd, line)
})
`
