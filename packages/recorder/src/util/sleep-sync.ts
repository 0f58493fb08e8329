// One shared cell: Atomics.wait on it never returns early because nothing ever notifies it.
const cell = new Int32Array(new SharedArrayBuffer(4))

/** Blocks the thread for `ms` milliseconds. Only for the synchronous drains, where no event loop is left. */
export function sleepSync(ms: number): void {
  Atomics.wait(cell, 0, 0, ms)
}
