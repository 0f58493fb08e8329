import PQueue from 'p-queue'

import { invalidArgument } from './invalid-argument.js'

/**
 * A process-wide cap on the recorders' file-system calls in flight. Every async `fs` call runs on libuv's
 * threadpool (4 threads unless `UV_THREADPOOL_SIZE` says otherwise), which DNS lookups, crypto and zlib
 * share; hundreds of recorders each with one write in flight would starve them. The default leaves half
 * the pool free.
 */
let limiter: PQueue | undefined

function defaultConcurrency(): number {
  const size = Number.parseInt(process.env.UV_THREADPOOL_SIZE ?? '', 10)
  const threads = Number.isInteger(size) && size > 0 ? size : 4
  return Math.max(1, Math.floor(threads / 2))
}

function getLimiter(): PQueue {
  limiter ??= new PQueue({ concurrency: defaultConcurrency() })
  return limiter
}

/** Runs one file-system call under the process-wide cap. */
export function limited<T>(call: () => Promise<T>): Promise<T> {
  return getLimiter().add(call)
}

/**
 * Sets how many recorder file-system calls may be in flight at once across the process
 * (default: half of libuv's threadpool, at least 1).
 */
export function setMaxConcurrentWrites(max: number): void {
  if (!Number.isInteger(max) || max < 1) throw invalidArgument('max', 'a positive integer', max)
  getLimiter().concurrency = max
}

/** The current cap (see {@link setMaxConcurrentWrites}). */
export function getMaxConcurrentWrites(): number {
  return getLimiter().concurrency
}
