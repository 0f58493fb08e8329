import path from 'node:path'

/**
 * Name of a quarantine sidecar for `filePath`: `<name>.torn-<UTC time>` next to it, with `-<n>` appended
 * by the caller on a clash. The time makes it sort after the transcript and say when the repair ran.
 */
export function quarantinePathFor(filePath: string, now: Date, attempt: number): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('.', '')
  const suffix = attempt === 0 ? '' : `-${attempt}`
  return path.join(path.dirname(filePath), `${path.basename(filePath)}.torn-${stamp}${suffix}`)
}

/** How many names to try before giving up (a clash needs two repairs in the same millisecond). */
export const QUARANTINE_NAME_ATTEMPTS = 100
