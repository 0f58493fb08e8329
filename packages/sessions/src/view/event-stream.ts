/**
 * The pages' event streams (`…/events`, server-sent events) and their bounds. Each stream follows one
 * session (live-session.ts) and writes what it sends; the server holds at most MAX_STREAMS of them. Memory
 * per stream is bounded by pacing, not by trusting the page: the session's read waits whenever more than
 * HIGH_WATER_BYTES wait in the socket's buffer, and a stream whose buffer still passes MAX_UNREAD_BYTES
 * (one huge message to a page that does not read) is dropped.
 *
 * When all MAX_STREAMS are taken, a new page takes the place of the stream that has waited longest for its
 * page to read (a tab that stopped reading, a client that never did); when none waits, the new one is
 * refused with 503 (the page says so).
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { FormatOption } from '@sessiontape/recorder'
import { jsonIsland } from '../export/text-safety.js'
import { LiveSession } from './live-session.js'

/** Pages followed at once: far more tabs than a person watches, few enough that their buffers stay small. */
export const MAX_STREAMS = 16
/** Above this many unread bytes the session's read waits for the page (about a chunk of turns). */
const HIGH_WATER_BYTES = 1024 * 1024
/**
 * A stream that holds more unread bytes than this is dropped (its page reconnects and starts over): only a
 * single very large message gets past HIGH_WATER_BYTES, since the read waits above it.
 */
const MAX_UNREAD_BYTES = 32 * 1024 * 1024
/** A comment line every so often keeps proxies and the browser from timing the stream out. */
const HEARTBEAT_MS = 15_000

/** Headers every answer carries (server.ts). */
export const SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
} as const

interface Stream {
  readonly res: ServerResponse
  /** Since when the stream has waited for its page to read (its buffer above HIGH_WATER_BYTES); 0: not. */
  waitingSince: number
}

export interface FollowOptions {
  readonly format: FormatOption
  readonly pollMs: number
}

export class EventStreams {
  readonly #streams = new Set<Stream>()

  /** Serves `file`'s event stream on `res`; false when every place is taken (the caller answers 503). */
  follow(
    file: string,
    pageTag: string | undefined,
    req: IncomingMessage,
    res: ServerResponse,
    options: FollowOptions,
  ): boolean {
    if (this.#streams.size >= MAX_STREAMS && !this.#evictOne()) return false
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      ...SECURITY_HEADERS,
      Connection: 'keep-alive',
    })
    const stream: Stream = { res, waitingSince: 0 }
    this.#streams.add(stream)
    const reading = new AbortController()
    let closed = false
    const write = (text: string): void => {
      if (closed) return
      res.write(text)
      if (res.writableLength > MAX_UNREAD_BYTES) res.destroy()
    }
    const event = (name: string, data: unknown): void =>
      write(`event: ${name}\ndata: ${jsonIsland(data)}\n\n`)
    const drained = (): Promise<void> | undefined => {
      if (closed || res.writableLength <= HIGH_WATER_BYTES) return undefined
      stream.waitingSince = Date.now()
      return new Promise<void>((resolve) => {
        const done = (): void => {
          res.off('drain', done)
          res.off('close', done)
          stream.waitingSince = 0
          resolve()
        }
        res.on('drain', done)
        res.on('close', done)
      })
    }
    const session = new LiveSession(
      file,
      options.format,
      {
        turns: (message) => event('turns', message),
        branch: (message) => event('branch', message),
        pending: (pending) => event('pending', pending),
        reset: (message) => event('reset', message),
        drained,
      },
      pageTag,
    )
    /** The poll under way, if any: the held file is closed only once it has ended. */
    let running: Promise<void> | undefined
    const poll = (): void => {
      if (running !== undefined || closed) return
      running = session
        .poll(reading.signal)
        .catch(() => {
          // The file is briefly unreadable, or the page went away: the next poll tries again (a closed
          // stream has no next poll).
        })
        .finally(() => (running = undefined))
    }
    // Polling, not fs.watch: it sees appends on every file system (network mounts included) and stops cleanly.
    const timer = setInterval(poll, options.pollMs)
    const heartbeat = setInterval(() => write(': ping\n\n'), HEARTBEAT_MS)
    poll()
    const stop = (): void => {
      if (closed) return
      closed = true
      reading.abort()
      clearInterval(timer)
      clearInterval(heartbeat)
      this.#streams.delete(stream)
      // An aborted read ends at its next step; the file it reads is closed after it.
      void Promise.resolve(running)
        .then(() => session.close())
        .catch(() => {
          // Closing a descriptor we opened: nothing a page could be told.
        })
    }
    req.on('close', stop)
    res.on('close', stop)
    return true
  }

  /** Drops the stream that has waited longest for its page to read; false when none waits. */
  #evictOne(): boolean {
    let oldest: Stream | undefined
    for (const stream of this.#streams) {
      if (stream.waitingSince === 0) continue
      if (oldest === undefined || stream.waitingSince < oldest.waitingSince) oldest = stream
    }
    if (oldest === undefined) return false
    this.#streams.delete(oldest)
    oldest.res.destroy()
    return true
  }

  /** Ends every stream (the viewer is closing). */
  endAll(): void {
    for (const stream of this.#streams) stream.res.end()
  }
}
