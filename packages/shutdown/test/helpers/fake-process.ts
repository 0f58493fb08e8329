import { EventEmitter } from 'node:events'
import { Writable } from 'node:stream'
import type { ProcessPort } from '../../src/index.js'

/** A process stand-in: `exit()` records the code and emits `'exit'` like the real one, without exiting. */
export class FakeProcess extends EventEmitter implements ProcessPort {
  readonly platform: string
  exitCode: number | string | null | undefined = undefined
  readonly exits: number[] = []

  constructor(platform = 'linux') {
    super()
    this.platform = platform
  }

  exit(code?: number): void {
    this.exits.push(code ?? 0)
    this.emit('exit', code)
  }

  /** Listener counts of the events this package may touch. */
  counts(): Record<string, number> {
    const events = [
      'SIGINT',
      'SIGTERM',
      'SIGHUP',
      'SIGBREAK',
      'exit',
      'uncaughtException',
      'unhandledRejection',
    ]
    return Object.fromEntries(events.map((event) => [event, this.listenerCount(event)]))
  }
}

/** A writable that keeps what was written. */
export class MemoryStream extends Writable {
  text = ''

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.text += chunk.toString()
    callback()
  }
}

/** An isolated instance's injectable parts: a fake process and in-memory stdout/stderr. */
export function fakes(platform?: string): {
  process: FakeProcess
  stdout: MemoryStream
  stderr: MemoryStream
} {
  return { process: new FakeProcess(platform), stdout: new MemoryStream(), stderr: new MemoryStream() }
}
