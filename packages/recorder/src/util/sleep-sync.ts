// One shared cell: Atomics.wait on it never returns early because nothing ever notifies it. Made on first
// use, not at import: nothing is done at import time (a SharedArrayBuffer costs a few ms at start-up, paid
// by every CLI run and every agent that never needs a synchronous drain).
let cell: Int32Array | undefined

/** Blocks the thread for `ms` milliseconds. Only for the synchronous drains, where no event loop is left. */
export function sleepSync(ms: number): void {
  cell ??= new Int32Array(new SharedArrayBuffer(4))
  Atomics.wait(cell, 0, 0, ms)
}
