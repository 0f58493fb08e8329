import { utimes, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { FORMAT_VERSION, type SessionMeta, type SessionRecord } from '../../src/record-format.js'
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

export async function writeMetaFile(dir: string, meta: SessionMeta): Promise<void> {
  await writeFile(path.join(dir, `${meta.sessionId}.meta.json`), JSON.stringify(meta))
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

/** Sets a file's mtime (seconds since the epoch) so staleness checks see what a test needs. */
export async function setMtime(file: string, seconds: number): Promise<void> {
  await utimes(file, seconds, seconds)
}
