/**
 * The exit safety net shared by every recorder: one `'exit'` listener for the whole process, installed when
 * the first recorder registers and removed when the last one unregisters, so importing the package does
 * nothing and a host with hundreds of recorders does not collect hundreds of listeners.
 *
 * An `'exit'` listener that runs before ours and calls `process.exit()` ends the process on the spot: Node
 * skips every listener after it. So while a recorder is registered, `process.reallyExit` (what
 * `process.exit()` calls last, also from inside an `'exit'` listener) runs the drains first too — the way
 * signal-exit guards its own hooks. A drain that already ran finds nothing left to write.
 */
const drains = new Set<() => void>()

type ReallyExit = (code?: number) => void
interface ProcessWithReallyExit {
  reallyExit?: ReallyExit
}
let originalReallyExit: ReallyExit | undefined
const guardedReallyExit: ReallyExit = function (this: unknown, code?: number): void {
  drainAll()
  originalReallyExit!.call(this, code)
}

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

function install(): void {
  process.on('exit', drainAll)
  const port = process as unknown as ProcessWithReallyExit
  if (typeof port.reallyExit === 'function' && originalReallyExit === undefined) {
    originalReallyExit = port.reallyExit
    port.reallyExit = guardedReallyExit
  }
}

function uninstall(): void {
  process.removeListener('exit', drainAll)
  const port = process as unknown as ProcessWithReallyExit
  // Someone wrapped it after us: leave their wrapper in place (ours, below it, has nothing to drain).
  if (originalReallyExit !== undefined && port.reallyExit === guardedReallyExit) {
    port.reallyExit = originalReallyExit
    originalReallyExit = undefined
  }
}

/** Runs `drain` synchronously when the process exits; returns the undo. */
export function registerExitDrain(drain: () => void): () => void {
  if (drains.size === 0) install()
  drains.add(drain)
  return () => {
    if (!drains.delete(drain)) return
    if (drains.size === 0) uninstall()
  }
}
