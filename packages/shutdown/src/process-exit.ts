import { inspect } from 'node:util'

import type { ShutdownSignal } from './exit-codes.js'
import { ExitInterceptor } from './exit-interceptor.js'
import type { ProcessPort } from './options.js'
import type { CleanupRegistry } from './registry.js'

export interface ProcessExitSettings {
  readonly process: ProcessPort
  readonly registry: CleanupRegistry
  /** Re-raise the signal that started the exit once every 'exit' listener ran (see {@link reraiseOnExit}). */
  readonly reraiseSignals: boolean
  /** A `process.exit()` call made while held (by a cleanup, a sync variant, another 'exit' listener). */
  readonly onExitCall: (code: unknown) => void
  readonly writeStderr: (text: string) => void
}

/**
 * The one real exit of a `Shutdown`, and everything that runs inside the `'exit'` event: the hold on
 * `process.exit()` (so a call mid-shutdown cannot cut off what comes after it), the `'exit'` listener that
 * runs the cleanups' sync variants, and the re-raise of the signal that started the exit. The process
 * exits through {@link exit} exactly once.
 */
export class ProcessExit {
  readonly #s: ProcessExitSettings
  // Holds process.exit() while cleanups run and while the process exits, so a cleanup or hook calling it
  // cannot skip the rest (the later cleanups, the drain, the recorder's 'exit' drain).
  readonly #interceptor: ExitInterceptor
  // process.exit must be called once even when a forced exit races the graceful path.
  #exited = false
  // The 'exit' listener that runs sync variants is only present while a sync variant is registered.
  #exitListenerInstalled = false
  // True while the 'exit' event is being emitted (by our exit or while our sync variants run): a held
  // process.exit() can then only adjust the code, since nothing asynchronous runs any more.
  #inExitEvent = false
  // The sync variant running now, to name it when it calls process.exit().
  #syncRunning: string | undefined

  constructor(settings: ProcessExitSettings) {
    this.#s = settings
    this.#interceptor = new ExitInterceptor(settings.process, settings.onExitCall)
  }

  get exited(): boolean {
    return this.#exited
  }

  /** Inside the 'exit' event: only synchronous work is left. */
  get inExitEvent(): boolean {
    return this.#inExitEvent
  }

  /** The name of the sync variant running now, if one is. */
  get syncRunning(): string | undefined {
    return this.#syncRunning
  }

  /** Holds `process.exit()` calls (for a pass or an exit): each goes to `onExitCall` instead. */
  hold(): void {
    this.#interceptor.hold()
  }

  release(): void {
    this.#interceptor.release()
  }

  /**
   * The one real exit, with `code`. After a signal (`signal`), the signal is raised again once every other
   * 'exit' listener ran. Held through the exit itself: an 'exit' listener calling process.exit() must not
   * cut off the ones after it (the recorder's exit drain among them).
   */
  exit(code: number, signal: ShutdownSignal | undefined): void {
    if (this.#exited) return
    this.#exited = true
    if (signal !== undefined) this.#reraiseOnExit(signal)
    this.#interceptor.hold()
    this.#inExitEvent = true
    try {
      this.#interceptor.exit(code)
    } finally {
      // Only reached with an injected process whose exit() returns.
      this.#inExitEvent = false
      this.#interceptor.release()
    }
  }

  /** The registry's sync variants changed: the 'exit' listener that runs them is there only while some are. */
  syncVariantsChanged(): void {
    const wanted = this.#s.registry.syncCount > 0
    if (wanted === this.#exitListenerInstalled) return
    this.#exitListenerInstalled = wanted
    if (wanted) this.#s.process.on('exit', this.#runSyncVariants)
    else this.#s.process.removeListener('exit', this.#runSyncVariants)
  }

  /**
   * Ends the process by `signal` once every other 'exit' listener has run (ours is added last, at the
   * exit), so the parent sees a death by signal. Our handler is gone by then, so the default action
   * applies. When the signal does not end the process (ignored, or handled by someone else), Node goes
   * on to exit with 128 + n. Windows cannot re-raise (process.kill terminates with code 1; SIGHUP throws
   * ENOSYS), so it always exits 128 + n.
   */
  #reraiseOnExit(signal: ShutdownSignal): void {
    const port = this.#s.process
    const { pid } = port
    if (!this.#s.reraiseSignals || port.platform === 'win32' || port.kill === undefined || pid === undefined)
      return
    const raise = (): void => {
      port.removeListener('exit', raise)
      // Any JavaScript listener left (signal-exit's, pulled in by proper-lockfile or write-file-atomic)
      // would turn the signal into an event for a loop that never turns again, and the process would
      // exit 128 + n instead. None of them can run any more at this point, so removing them loses
      // nothing; with none left, Node restores the default action.
      port.removeAllListeners?.(signal)
      try {
        port.kill?.(pid, signal)
      } catch {
        // Re-raising is best effort: Node then exits with 128 + n, which the shell reports the same way.
      }
    }
    port.on('exit', raise)
  }

  // 'exit' listeners may only do synchronous work: what is still queued is abandoned after them.
  // A sync variant calling process.exit() is held, so the remaining ones and the 'exit' listeners after
  // ours still run.
  readonly #runSyncVariants = (): void => {
    const wasHeld = this.#interceptor.held
    const wasInExit = this.#inExitEvent
    this.#interceptor.hold()
    this.#inExitEvent = true
    try {
      for (const entry of this.#s.registry.needingSync()) {
        entry.state = 'settled'
        this.#syncRunning = entry.name
        try {
          entry.sync?.()
        } catch (error) {
          this.#s.writeStderr(`sync cleanup "${entry.name}" threw: ${inspect(error)}\n`)
        } finally {
          this.#syncRunning = undefined
        }
      }
    } finally {
      // An exit not started by us (a direct process.exit()): hand process.exit back after our listener.
      if (!wasHeld) {
        this.#interceptor.release()
        this.#inExitEvent = wasInExit
      }
    }
  }
}
