/**
 * Which events are on the active branch, without holding the session: a first pass over the records keeps
 * only their links (uuid, parent, compaction link, sidechain flag, type) and asks the recorder's
 * `activeBranch()`, the same walk `readConversation()` uses. An event belongs to the record whose uuid
 * starts its id (`<uuid>` or `<uuid>#<n>`); events of no record (metadata lines, records without a uuid)
 * are on every branch.
 */
import { activeBranch, streamRecords, type FormatOption, type SessionRecord } from '@sessiontape/recorder'
import type { ConversationEvent } from '../model.js'

export type OnBranch = (event: ConversationEvent) => boolean

function recordOf(id: string): string {
  const hash = id.indexOf('#')
  return hash === -1 ? id : id.slice(0, hash)
}

export async function activeBranchOf(
  file: string,
  options: { readonly format: FormatOption; readonly signal?: AbortSignal; readonly maxLineBytes?: number },
): Promise<OnBranch> {
  const links: SessionRecord[] = []
  const all = new Set<string>()
  for await (const record of streamRecords(file, {
    format: options.format,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.maxLineBytes === undefined ? {} : { maxLineBytes: options.maxLineBytes }),
  })) {
    if (record.uuid === '') continue
    all.add(record.uuid)
    const link: Record<string, unknown> = {
      uuid: record.uuid,
      parentUuid: record.parentUuid,
      type: record.type,
      isSidechain: record.isSidechain,
    }
    if (record.subtype !== undefined) link.subtype = record.subtype
    if (record.logicalParentUuid !== undefined) link.logicalParentUuid = record.logicalParentUuid
    links.push(link as unknown as SessionRecord)
  }
  const branch = new Set(activeBranch(links).records.map((record) => record.uuid))
  if (branch.size === 0) return () => true
  return (event) => {
    const record = recordOf(event.id)
    return !all.has(record) || branch.has(record)
  }
}
