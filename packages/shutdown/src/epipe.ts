import type { Writable } from 'node:stream'

// Marks guard listeners; `Symbol.for` so that guards from two loaded copies of the package know each other.
const GUARD = Symbol.for('@sessiontape/shutdown/epipe-guard')

function isGuard(listener: unknown): boolean {
  return typeof listener === 'function' && GUARD in listener
}

function isEpipe(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'EPIPE'
}

/**
 * Listens for EPIPE on `stream` itself (attributing it by the stream's own `'error'` event, not by
 * `err.code` seen elsewhere): destroys the stream, so later writes are silently dropped instead of
 * throwing, and calls `onEpipe` once. Other errors stay with their owners: when only guards listen, the
 * error is rethrown (once) exactly as Node would have thrown it without any listener.
 * Returns the function that removes the listener.
 */
export function watchEpipe(stream: Writable, onEpipe: () => void): () => void {
  let seen = false
  const onError = (error: unknown): void => {
    if (isEpipe(error)) {
      stream.destroy()
      if (!seen) {
        seen = true
        onEpipe()
      }
      return
    }
    // Not ours to handle. Our listeners must not turn an unhandled stream error into a silent one: when
    // only guards listen (one, or several from other instances or copies), the first one rethrows.
    const listeners = stream.listeners('error')
    if (listeners[0] === onError && listeners.every(isGuard)) throw error
  }
  Object.defineProperty(onError, GUARD, { value: true })
  stream.on('error', onError)
  return () => {
    stream.removeListener('error', onError)
  }
}
