import fs from 'node:fs'
import fsp from 'node:fs/promises'
import path from 'node:path'

import sonicBoom, { type SonicBoom as SonicBoomClass } from 'sonic-boom'

import { createRecorder } from '../src/index.js'
import { envelopeLine } from './records.js'

/** One way of recording: `write()` is what the caller does per record; `finish()` waits for the end. */
export interface Writer {
  write(type: string, data: object): void
  /** Resolves when everything written is where this writer promises it (flushed / synced). */
  finish(): Promise<void>
  /** Cleanup outside the measured phase. */
  close(): Promise<void>
}

export const VARIANTS = [
  'ours',
  'ours-never',
  'appendFileSync',
  'promise-chain',
  'createWriteStream',
  'sonic-boom',
  'stringify-only',
] as const
export type Variant = (typeof VARIANTS)[number]

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
    case 'ours':
    case 'ours-never': {
      const rec = createRecorder({
        dir,
        sessionId: SESSION,
        ...(variant === 'ours-never' ? { fsync: 'never' } : {}),
      })
      await rec.ready()
      return {
        write: (type, data) => void rec.record(type, data),
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
