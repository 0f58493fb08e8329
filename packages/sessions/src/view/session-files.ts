/**
 * The transcripts under a directory the viewer lists: `.jsonl` and `.json` files, a few levels deep (agents
 * keep sessions in per-project or per-date folders), newest first. Read-only: a stat per file, nothing
 * opened. Bounded: at most MAX_FILES files and MAX_DEPTH levels, symlinks not followed.
 */
import { readdir } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import { statOf } from '../files/file-stat.js'

/** Enough for years of sessions; a listing past it shows the newest found first. */
const MAX_FILES = 2000
/** `~/.codex/sessions/YYYY/MM/DD/…` is three levels below the directory a user points at. */
const MAX_DEPTH = 4

export interface SessionFile {
  /** Path relative to the listed directory, with `/` separators: the key in viewer URLs. */
  readonly key: string
  readonly path: string
  readonly size: number
  readonly mtimeMs: number
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
          out.push({ key, path, size: info.size, mtimeMs: info.mtimeMs })
        }
      }
    }
  }
  await walk(dir, 0)
  return out.sort((a, b) => b.mtimeMs - a.mtimeMs)
}
