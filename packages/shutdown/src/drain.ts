import type { Writable } from 'node:stream'
import { armTimer, type Clock } from './clock.js'

export type DrainResult = 'drained' | 'timed-out' | 'skipped' | 'failed'

/**
 * Waits until everything queued on `stream` has been handed to the OS, for at most `timeoutMs`.
 * Writes to a pipe are asynchronous on POSIX and `process.exit()` discards what is still queued; an
 * empty write's callback fires once every earlier write has completed. Never rejects.
 */
export function drainStream(stream: Writable, timeoutMs: number, clock: Clock): Promise<DrainResult> {
  if (stream.destroyed || !stream.writable) return Promise.resolve('skipped')
  if (stream.writableLength === 0 && !stream.writableNeedDrain) return Promise.resolve('drained')
  return new Promise((resolve) => {
    let done = false
    const finish = (result: DrainResult): void => {
      if (done) return
      done = true
      disarm()
      stream.removeListener('error', onError)
      stream.removeListener('close', onClose)
      resolve(result)
    }
    // Listening during the drain keeps an EPIPE that arrives now from becoming an uncaught exception.
    const onError = (): void => finish('failed')
    const onClose = (): void => finish('failed')
    stream.on('error', onError)
    stream.once('close', onClose)
    // A reader that stops reading but keeps the pipe open would hold the drain forever without this bound.
    const disarm = armTimer(clock, timeoutMs, () => finish('timed-out'))
    try {
      stream.write('', (error) => finish(error ? 'failed' : 'drained'))
    } catch {
      // write() on a stream that ended meanwhile throws synchronously; nothing more can be drained.
      finish('failed')
    }
  })
}
