/**
 * The exit safety net shared by every recorder: one `'exit'` listener for the whole process, installed when
 * the first recorder registers and removed when the last one unregisters, so importing the package does
 * nothing and a host with hundreds of recorders does not collect hundreds of listeners.
 */
const drains = new Set<() => void>()

function drainAll(): void {
  for (const drain of drains) {
    try {
      drain()
    } catch {
      // Never throw from an exit listener: it would replace the exit code and skip the other recorders.
      // Each drain reports its own failures; this only guards against a bug in one.
    }
  }
}

/** Runs `drain` synchronously when the process exits; returns the undo. */
export function registerExitDrain(drain: () => void): () => void {
  if (drains.size === 0) process.on('exit', drainAll)
  drains.add(drain)
  return () => {
    if (!drains.delete(drain)) return
    if (drains.size === 0) process.removeListener('exit', drainAll)
  }
}
