import type { Writable } from 'node:stream'

function isEpipe(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'EPIPE'
}

/**
 * Listens for EPIPE on `stream` itself (attributing it by the stream's own `'error'` event, not by
 * `err.code` seen elsewhere): destroys the stream, so later writes are silently dropped instead of
 * throwing, and calls `onEpipe` once. Other errors stay with their owners: when this listener is the only
 * one, the error is rethrown exactly as Node would have thrown it without any listener.
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
    // Not ours to handle. Our listener must not turn an unhandled stream error into a silent one.
    if (stream.listenerCount('error') === 1) throw error
  }
  stream.on('error', onError)
  return () => {
    stream.removeListener('error', onError)
  }
}
