import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { FORMAT_VERSION, type SessionRecord } from '../../src/format/record-format.js'

/** Builds a record in the on-disk format (envelope first, in order), as the writer would. */
export function makeRecord(
  index: number,
  parentUuid: string | null,
  data: Record<string, unknown> = {},
  sessionId = 's1',
): SessionRecord {
  return {
    uuid: `u${index}`,
    parentUuid,
    sessionId,
    timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, index)).toISOString(),
    type: 'message',
    v: FORMAT_VERSION,
    text: `record ${index}`,
    ...data,
  }
}

/** A linear chain u0 ← u1 ← … of `count` records. */
export function makeChain(count: number, sessionId = 's1'): SessionRecord[] {
  return Array.from({ length: count }, (_, i) => makeRecord(i, i === 0 ? null : `u${i - 1}`, {}, sessionId))
}

export function toJsonl(records: readonly unknown[]): string {
  return records.map((r) => `${JSON.stringify(r)}\n`).join('')
}

export async function withTempDir<T>(run: (dir: string) => T | Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sessiontape-read-'))
  try {
    return await run(dir)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
