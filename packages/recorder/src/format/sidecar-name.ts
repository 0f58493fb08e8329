import path from 'node:path'
import { sidecarDirOfFile } from './record-format.js'

/** What a file in the sidecar directory is to its transcript. */
export type SidecarKind = 'repaired' | 'orig'

/**
 * Name of a file that belongs to the transcript `filePath` but is not one:
 * `<dir>/.sessiontape/<name>.<kind>-<UTC time>`, with `-<n>` appended by the caller on a clash. It lives
 * in the sidecar directory so that a log shipper tailing `<dir>/*.jsonl` (or `<dir>/*`) never ships it;
 * the time says when it was made and sorts it after the transcript's other files.
 */
export function sidecarPathFor(filePath: string, kind: SidecarKind, now: Date, attempt: number): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('.', '')
  const suffix = attempt === 0 ? '' : `-${attempt}`
  return path.join(sidecarDirOfFile(filePath), `${path.basename(filePath)}.${kind}-${stamp}${suffix}`)
}

/** How many names to try before giving up (a clash needs two repairs in the same millisecond). */
export const SIDECAR_NAME_ATTEMPTS = 100
