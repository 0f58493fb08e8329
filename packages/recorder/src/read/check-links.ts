import type { SessionRecord } from '../format/record-format.js'

/** uuid → index of its first record (duplicates never shadow the original). */
export function indexByUuid(records: readonly SessionRecord[]): Map<string, number> {
  const index = new Map<string, number>()
  for (let i = 0; i < records.length; i++) {
    const uuid = records[i]!.uuid
    if (!index.has(uuid)) index.set(uuid, i)
  }
  return index
}
