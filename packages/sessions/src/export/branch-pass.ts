/**
 * Which events are on the active branch, without holding the session: a first pass over the records keeps
 * only their links (uuid, parent, compaction link, sidechain flag, type) and asks the recorder's
 * `activeBranch()`, the same walk `readConversation()` uses. An event belongs to the record whose uuid
 * starts its id (`<uuid>` or `<uuid>#<n>`); events of no record (metadata lines, records without a uuid)
 * and of our metadata records (`title`, `recovered`) are on every branch. What is kept afterwards is the set of records *off* the branch (none in a session
 * that never rewound), so the rendering pass that follows holds nothing that grows with the session.
 */
import {
  activeBranch,
  RECOVERED_RECORD_TYPE,
  streamRecords,
  TITLE_RECORD_TYPE,
  type FormatOption,
  type SessionRecord,
} from '@sessiontape/recorder'
import type { ConversationEvent } from '../model.js'

export type OnBranch = (event: ConversationEvent) => boolean

const SESSION_METADATA: ReadonlySet<string> = new Set([TITLE_RECORD_TYPE, RECOVERED_RECORD_TYPE])

/** The record an event came from: its id up to a `#`. */
export function recordOf(id: string): string {
  const hash = id.indexOf('#')
  return hash === -1 ? id : id.slice(0, hash)
}

/**
 * The links of a session's records, as small as they can be kept: a parent that is the record just before
 * (a session that did not rewind: nearly every record) shares that record's uuid string instead of holding a
 * copy of its own.
 */
export class BranchLinks {
  readonly #links: SessionRecord[] = []
  #previous = ''

  add(record: SessionRecord): void {
    if (record.uuid === '') return
    const parent = record.parentUuid === this.#previous ? this.#previous : record.parentUuid
    const link: Record<string, unknown> = {
      uuid: record.uuid,
      parentUuid: parent,
      type: record.type,
      isSidechain: record.isSidechain,
    }
    if (record.subtype !== undefined) link.subtype = record.subtype
    if (record.logicalParentUuid !== undefined) link.logicalParentUuid = record.logicalParentUuid
    this.#links.push(link as unknown as SessionRecord)
    this.#previous = record.uuid
  }

  /** The uuids of the records off the active branch; the links are released unless `keep` (a live view adds more). */
  offBranch(keep = false): Set<string> {
    const links = keep ? this.#links : this.#links.splice(0)
    const branch = new Set(activeBranch(links).records.map((record) => record.uuid))
    const off = new Set<string>()
    // No branch at all (no leaf): every event counts as on it.
    if (branch.size === 0) return off
    // Our metadata records (a title, a recovered torn line) are never a parent, so no branch passes through
    // them; they name or explain the whole session and belong to every branch.
    for (const link of links) {
      if (!branch.has(link.uuid) && !SESSION_METADATA.has(link.type)) off.add(link.uuid)
    }
    return off
  }
}

/** Whether an event is on the branch, given the records off it. */
export function onBranchOf(off: ReadonlySet<string>): OnBranch {
  if (off.size === 0) return () => true
  return (event) => !off.has(recordOf(event.id))
}

export async function activeBranchOf(
  file: string,
  options: { readonly format: FormatOption; readonly signal?: AbortSignal; readonly maxLineBytes?: number },
): Promise<OnBranch> {
  const links = new BranchLinks()
  for await (const record of streamRecords(file, {
    format: options.format,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.maxLineBytes === undefined ? {} : { maxLineBytes: options.maxLineBytes }),
  })) {
    links.add(record)
  }
  return onBranchOf(links.offBranch())
}
