import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { FORMAT_VERSION, type SessionMeta, type SessionRecord } from '../../src/format/record-format.js'
import { makeRecord, toJsonl } from './records.js'

/** Writes `<id>.jsonl` with `count` chained records whose timestamps start at `startSecond`. */
export async function writeTranscript(
  dir: string,
  sessionId: string,
  count: number,
  startSecond = 0,
  extra: readonly SessionRecord[] = [],
): Promise<SessionRecord[]> {
  const records = Array.from({ length: count }, (_, i) =>
    makeRecord(startSecond + i, i === 0 ? null : `u${startSecond + i - 1}`, {}, sessionId),
  ).concat(extra)
  await writeFile(path.join(dir, `${sessionId}.jsonl`), toJsonl(records))
  return records
}

/** Writes a sidecar where a recorder keeps it: `<dir>/.sessiontape/<id>.meta.json`. */
export async function writeMetaFile(dir: string, meta: SessionMeta): Promise<void> {
  await mkdir(path.join(dir, '.sessiontape'), { recursive: true, mode: 0o700 })
  await writeFile(metaPath(dir, meta.sessionId), JSON.stringify(meta))
}

/** Where a session's sidecar is: `<dir>/.sessiontape/<id>.meta.json`, out of a shipper's `*.jsonl` and `*`. */
export function metaPath(dir: string, sessionId: string): string {
  return path.join(dir, '.sessiontape', `${sessionId}.meta.json`)
}

export function meta(sessionId: string, updatedAt: string, recordCount: number, title?: string): SessionMeta {
  return {
    sessionId,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt,
    recordCount,
    lastUuid: `last-of-${sessionId}`,
    ...(title === undefined ? {} : { title }),
    v: FORMAT_VERSION,
  }
}

/**
 * Every file a session directory holds, the sidecar directory's as `.sessiontape/<name>`; the sidecar
 * directory itself is left out (a lock taken and released leaves it, empty).
 */
export async function filesIn(dir: string): Promise<string[]> {
  const names: string[] = []
  for (const name of (await readdir(dir)).sort()) {
    if (name !== '.sessiontape') names.push(name)
    else names.push(...(await readdir(path.join(dir, name))).sort().map((inner) => `${name}/${inner}`))
  }
  return names
}

/** Sets a file's mtime (seconds since the epoch) so staleness checks see what a test needs. */
export async function setMtime(file: string, seconds: number): Promise<void> {
  await utimes(file, seconds, seconds)
}
