import { readdir, stat } from 'node:fs/promises'
import path from 'node:path'
import { segmentedSessions } from '@sessiontape/recorder/internal'

/**
 * Which files in a directory are sessions: `*.jsonl` (every JSONL agent, subagent files included), Codex's
 * compressed `*.jsonl.zst`, and Gemini CLI's older `session-*.json` documents. Other `.json` files (Gemini's
 * `logs.json`, settings) are not sessions.
 */
const SESSION_FILE = /(\.jsonl|\.jsonl\.zst)$|^session-.*\.json$/

/** Directories that never hold sessions: our own sidecars and locks. */
const SKIPPED_DIRS: ReadonlySet<string> = new Set(['.sessiontape', 'node_modules', '.git'])

/** A session file found, or a path that could not be read (with the fs error). */
export type FoundFile =
  { readonly file: string } | { readonly file: string; readonly error: NodeJS.ErrnoException }

/**
 * The session files under `paths`, in order: a file is taken as it is (whatever its name); a directory is
 * walked recursively (a session of ours kept in segments is found once, by its first file), entries sorted by name, symlinked directories not followed (a link back up would loop),
 * symlinked files followed (reading through one writes nothing). Read-only.
 */
export async function* sessionFiles(paths: readonly string[]): AsyncGenerator<FoundFile, void, undefined> {
  for (const given of paths) {
    let info
    try {
      info = await stat(given)
    } catch (error) {
      yield { file: given, error: error as NodeJS.ErrnoException }
      continue
    }
    if (info.isDirectory()) yield* walk(given)
    else yield { file: given }
  }
}

async function* walk(dir: string): AsyncGenerator<FoundFile, void, undefined> {
  let entries
  try {
    entries = await readdir(dir, { withFileTypes: true })
  } catch (error) {
    yield { file: dir, error: error as NodeJS.ErrnoException }
    return
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  // Later files of our sessions kept in segments: reading the session's first file reads them too.
  const { later } = await segmentedSessions(
    dir,
    entries.map((entry) => entry.name),
  )
  for (const entry of entries) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) yield* walk(full)
    } else if (SESSION_FILE.test(entry.name)) {
      if (later.has(entry.name)) continue
      if (entry.isFile()) yield { file: full }
      else if (entry.isSymbolicLink()) {
        try {
          if ((await stat(full)).isFile()) yield { file: full }
        } catch {
          // A dangling link names no session: nothing to count, nothing to report.
        }
      }
    }
  }
}
