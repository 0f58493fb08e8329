/**
 * The transcripts under a directory the viewer lists: `.jsonl` and `.json` files, a few levels deep (agents
 * keep sessions in per-project or per-date folders), newest first. Bounded: at most MAX_FILES files and
 * MAX_DEPTH levels, symlinks not followed. Read-only.
 *
 * The folder's page shows each session's title, agent and start: `sessionDetails` reads the first events of
 * a file (at most DETAIL_EVENTS, lines over DETAIL_LINE_BYTES skipped) and keeps what it found per file
 * identity (path, inode, size, mtime), so the page costs a stat per file once the details are known.
 */
import { readdir } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import type { FormatOption } from '@sessiontape/recorder'
import { statOf } from '../files/file-stat.js'
import { streamConversation } from '../stream-conversation.js'

/** Enough for years of sessions; a listing past it shows the newest found first. */
const MAX_FILES = 2000
/** `~/.codex/sessions/YYYY/MM/DD/…` is three levels below the directory a user points at. */
const MAX_DEPTH = 4
/** Events read for a session's details: its session facts, a title record and its first prompt come early. */
const DETAIL_EVENTS = 200
/** A line longer than this is skipped when reading details (a first prompt with a pasted file is not). */
const DETAIL_LINE_BYTES = 1024 * 1024
/** Files whose details are read at once. */
const DETAIL_CONCURRENCY = 8
const TITLE_RANK = { set: 3, generated: 2, summary: 1 } as const
/** A title longer than this is cut (the page shows one line). */
const TITLE_CHARS = 160

export interface SessionFile {
  /** Path relative to the listed directory, with `/` separators: the key in viewer URLs. */
  readonly key: string
  readonly path: string
  readonly size: number
  readonly mtimeMs: number
  readonly ino: number
}

/** What the folder's page says about a session. */
export interface SessionDetails {
  /** The session's title (set, else generated, else a summary), else its first prompt's first line; '' if none. */
  readonly title: string
  /** The transcript's format (`claude-code`, `codex-cli`, …); '' when it could not be read. */
  readonly agent: string
  /** The first timestamp read, as written; '' if none. */
  readonly started: string
}

export async function sessionFiles(dir: string): Promise<SessionFile[]> {
  const out: SessionFile[] = []
  const walk = async (at: string, depth: number): Promise<void> => {
    let entries
    try {
      entries = await readdir(at, { withFileTypes: true })
    } catch {
      // A folder we cannot read is left out of the list, not an error for the whole listing.
      return
    }
    for (const entry of entries) {
      if (out.length >= MAX_FILES) return
      const path = join(at, entry.name)
      if (entry.isDirectory() && depth < MAX_DEPTH && !entry.name.startsWith('.')) await walk(path, depth + 1)
      else if (entry.isFile() && /\.jsonl?$/.test(entry.name) && !entry.name.endsWith('.meta.json')) {
        // Undefined when gone between readdir and stat: not listed.
        const info = await statOf(path)
        if (info !== undefined) {
          const key = relative(dir, path).split(sep).join('/')
          out.push({ key, path, size: info.size, mtimeMs: info.mtimeMs, ino: info.ino })
        }
      }
    }
  }
  await walk(dir, 0)
  return out.sort((a, b) => b.mtimeMs - a.mtimeMs)
}

/** Details of listed files, remembered per file identity (one viewer's listing: at most MAX_FILES). */
export class SessionDetailsCache {
  readonly #format: FormatOption
  readonly #known = new Map<string, { identity: string; details: SessionDetails }>()

  constructor(format: FormatOption) {
    this.#format = format
  }

  async detailsOf(files: readonly SessionFile[]): Promise<SessionDetails[]> {
    const out: SessionDetails[] = new Array<SessionDetails>(files.length)
    let next = 0
    const worker = async (): Promise<void> => {
      while (next < files.length) {
        const i = next++
        out[i] = await this.#detailsOf(files[i]!)
      }
    }
    await Promise.all(Array.from({ length: DETAIL_CONCURRENCY }, worker))
    // Files no longer listed are forgotten.
    const listed = new Set(files.map((file) => file.path))
    for (const path of this.#known.keys()) if (!listed.has(path)) this.#known.delete(path)
    return out
  }

  async #detailsOf(file: SessionFile): Promise<SessionDetails> {
    const identity = `${file.ino}:${file.size}:${file.mtimeMs}`
    const known = this.#known.get(file.path)
    if (known?.identity === identity) return known.details
    const details = await readDetails(file.path, this.#format)
    this.#known.set(file.path, { identity, details })
    return details
  }
}

async function readDetails(path: string, format: FormatOption): Promise<SessionDetails> {
  let agent = ''
  let title = ''
  /** Who named it (set 3 > generated 2 > summary 1), as the catalog ranks titles; the latest of equals. */
  let titleRank = 0
  let prompt = ''
  let started = ''
  let events = 0
  try {
    for await (const event of streamConversation(path, {
      format,
      maxLineBytes: DETAIL_LINE_BYTES,
      // A damaged line does not make the listing fail; the session's page counts problems.
      onProblem: () => {},
      onFormat: (found) => (agent = found),
    })) {
      if (started === '' && event.timestamp !== undefined) started = event.timestamp
      if (event.kind === 'title' && event.title.trim() !== '' && TITLE_RANK[event.source] >= titleRank) {
        title = event.title
        titleRank = TITLE_RANK[event.source]
      }
      if (event.kind === 'user' && prompt === '' && event.text.trim() !== '') prompt = event.text
      if (++events >= DETAIL_EVENTS) break
    }
  } catch {
    // Unreadable (gone, not ours to read, not a transcript): listed with what its stat says.
  }
  const line = (title || prompt).trim().split('\n')[0]!.trim()
  return {
    title: line.length > TITLE_CHARS ? `${line.slice(0, TITLE_CHARS - 1)}…` : line,
    agent,
    started,
  }
}
