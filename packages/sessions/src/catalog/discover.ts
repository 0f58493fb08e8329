import type { Dirent } from 'node:fs'
import { readdirSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import path from 'node:path'
import { segmentedSessions, segmentNameParts } from '@sessiontape/recorder/internal'
import { inBatches } from './in-batches.js'

/** A transcript found under a listed directory. */
export interface FoundFile {
  readonly file: string
  /** Set for a subagent's transcript: the session file it belongs to (Claude's `<session>/subagents/`). */
  readonly parent?: string
  /**
   * A session of ours kept in segments: its later files (`<id>~<n>.jsonl`), which reading `file` reads too
   * (the recorder's format/segments.ts). They are not listed on their own.
   */
  readonly segments?: readonly string[]
}

/**
 * How a directory is walked. `shallow` is `listSessions`' rule (the directory's own transcripts, or, when it
 * has none, each subdirectory's and each subdirectory's `chats/`, and when that finds nothing either, walks
 * deep); `deep` walks down to {@link MAX_DEPTH}
 * levels (Codex's `YYYY/MM/DD`, any agent's layout).
 */
export type WalkMode = 'shallow' | 'deep'

/** A directory the walk could not read (not a missing one: that is the common case), or a bound it met. */
export interface SkippedDir {
  readonly dir: string
  /** The error's code (`EACCES`), or `ERR_WALK_BOUND` when the walk's bounds stopped it. */
  readonly code: string
}

/** Levels below a listed directory that `deep` looks at: Codex's `sessions/YYYY/MM/DD` needs 3. */
const MAX_DEPTH = 5
/** Directories read per walk: bounds a walk pointed at a huge tree (`/`, a home directory). */
const MAX_DIRECTORIES = 20_000
/** Transcripts per walk: far past any real history, a bound for a hostile tree. */
export const MAX_FILES = 200_000
/** Directories read at once: enough to keep the thread pool busy. */
const WALK_CONCURRENCY = 16
/** Subagent transcripts kept per session (Claude writes one per Task call). */
const MAX_SUBAGENTS = 1000

const GEMINI_DOCUMENT = /^session-.*\.json$/
/** Codex CLI compresses a rollout once it is closed: `rollout-….jsonl.zst` (read transparently, always whole). */
const COMPRESSED_SUFFIX = '.jsonl.zst'
const TRANSCRIPT_EXTENSION = /\.jsonl(?:\.zst)?$|\.json$/

export function isTranscriptName(name: string): boolean {
  return name.endsWith('.jsonl') || name.endsWith(COMPRESSED_SUFFIX) || GEMINI_DOCUMENT.test(name)
}

/** A transcript's name without its extension: the session id when the records carry none. */
export function transcriptBaseName(name: string): string {
  return name.replace(TRANSCRIPT_EXTENSION, '')
}

/** A compressed transcript: its bytes on disk are not its lines, so it is never read from a tail. */
export function isCompressedName(file: string): boolean {
  return file.endsWith(COMPRESSED_SUFFIX)
}

/**
 * The transcripts under `dir` (`*.jsonl`, Codex's compressed `*.jsonl.zst`, Gemini's `session-*.json`), sorted by path, with each session's subagent transcripts marked (a
 * directory named like a sibling transcript, `<session>/` next to `<session>.jsonl`, holds that session's
 * subagents, directly or in `subagents/`). Dot-directories (`.sessiontape` sidecars) are skipped. Read only;
 * a directory that cannot be read is skipped (a missing agent directory is the common case).
 */
export async function findTranscripts(
  dir: string,
  mode: WalkMode,
  blocking = false,
  skipped: SkippedDir[] = [],
): Promise<FoundFile[]> {
  const found: FoundFile[] = []
  // What is left of the walk's bound, how it reads directories, and where it tells what it could not read.
  const walk = { directories: MAX_DIRECTORIES, blocking, skipped }
  // Directories of one level are read a few at a time: a walk of 100 project directories was 100 round
  // trips to the thread pool, one after the other. (Past a bound, which files are kept then depends on
  // which reads finish first; far past any real history.)
  if (mode === 'shallow') {
    const own = await walkOne(dir, found, walk)
    if (own.transcripts === 0) {
      await inBatches(own.subdirectories, WALK_CONCURRENCY, async (sub) => {
        const at = path.join(dir, sub)
        // Its `chats/` only when it has one: a missing directory's failed read costs an error with its stack
        // (~75 of them for Claude Code's projects, ~10 ms of a warm search's CPU at load).
        const { hasChats } = await walkOne(at, found, walk)
        if (hasChats) await walkOne(path.join(at, 'chats'), found, walk)
      })
    }
  }
  // Nothing within two levels: a tree such as Codex's `sessions/YYYY/MM/DD` keeps its transcripts deeper.
  if (mode === 'deep' || found.length === 0) {
    let level = [dir]
    for (let depth = 0; depth <= MAX_DEPTH && level.length > 0 && found.length < MAX_FILES; depth++) {
      const next: string[] = []
      await inBatches(level, WALK_CONCURRENCY, async (at) => {
        const { subdirectories } = await walkOne(at, found, walk)
        for (const sub of subdirectories) next.push(path.join(at, sub))
      })
      level = next
    }
  }
  if (walk.directories < 0 || found.length >= MAX_FILES) skipped.push({ dir, code: 'ERR_WALK_BOUND' })
  return found.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))
}

/** Missing (an agent not installed, a file where a directory was looked for): nothing was there to read. */
function isAbsence(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code
  return code === 'ENOENT' || code === 'ENOTDIR'
}

/** Reads one directory: its transcripts (and their subagent directories) go to `found`. */
async function walkOne(
  dir: string,
  found: FoundFile[],
  walk: { directories: number; readonly blocking: boolean; readonly skipped: SkippedDir[] },
): Promise<{ transcripts: number; subdirectories: string[]; hasChats: boolean }> {
  if (walk.directories-- <= 0) return { transcripts: 0, subdirectories: [], hasChats: false }
  let entries: Dirent[]
  try {
    entries = walk.blocking
      ? readdirSync(dir, { withFileTypes: true })
      : await readdir(dir, { withFileTypes: true })
  } catch (error) {
    // Missing: an agent that is not installed. Unreadable (EACCES): told, sessions may be in it.
    if (!isAbsence(error))
      walk.skipped.push({ dir, code: (error as NodeJS.ErrnoException).code ?? 'ERR_READ' })
    return { transcripts: 0, subdirectories: [], hasChats: false }
  }
  // `prefix + name` is `path.join(dir, name)` for a name readdir returns (no separator, never `.` or `..`),
  // without normalising the whole path again for each of a directory's thousands of files.
  const prefix = path.join(dir, '_').slice(0, -1)
  const names: string[] = []
  let hasDirectories = false
  // A `chats` entry that may be a directory (a link to one is read as one).
  let hasChats = false
  for (const entry of entries) {
    if (entry.isDirectory()) hasDirectories = true
    if (entry.name === 'chats' && (entry.isDirectory() || entry.isSymbolicLink())) hasChats = true
    if (!isTranscriptName(entry.name) || !(entry.isFile() || entry.isSymbolicLink())) continue
    if (found.length >= MAX_FILES) break
    found.push({ file: prefix + entry.name })
    names.push(entry.name)
  }
  await foldSegments(dir, prefix, names, found)
  const transcripts = names.length
  const subdirectories: string[] = []
  if (!hasDirectories) return { transcripts, subdirectories, hasChats }
  // Session files by name without extension: a directory of that name holds its subagents.
  const sessions = new Map<string, string>()
  for (const name of names) sessions.set(transcriptBaseName(name), prefix + name)
  for (const entry of entries) {
    // Dot-directories hold no session of a listed tree's own (.sessiontape/ sidecars, .git); a package
    // tree's node_modules is thousands of directories of other people's files.
    if (!entry.isDirectory() || entry.name.startsWith('.') || entry.name === 'node_modules') continue
    const parent = sessions.get(entry.name)
    if (parent !== undefined) await subagentsOf(path.join(dir, entry.name), parent, found, walk.skipped)
    else subdirectories.push(entry.name)
  }
  return { transcripts, subdirectories, hasChats }
}

async function subagentsOf(
  dir: string,
  parent: string,
  found: FoundFile[],
  skipped: SkippedDir[],
): Promise<void> {
  const unread = (at: string) => (error: unknown) => {
    if (!isAbsence(error))
      skipped.push({ dir: at, code: (error as NodeJS.ErrnoException).code ?? 'ERR_READ' })
    return [] as Dirent[]
  }
  const own = await readdir(dir, { withFileTypes: true }).catch(unread(dir))
  // `subagents/` is read only when the session's directory has one (a failed read costs an error with its
  // stack); its transcripts come first, as before.
  const inner = own.some(
    (entry) => entry.name === 'subagents' && (entry.isDirectory() || entry.isSymbolicLink()),
  )
    ? await readdir(path.join(dir, 'subagents'), { withFileTypes: true }).catch(
        unread(path.join(dir, 'subagents')),
      )
    : []
  let kept = 0
  for (const [at, entries] of [
    [path.join(dir, 'subagents'), inner],
    [dir, own],
  ] as const) {
    for (const entry of entries) {
      if (kept >= MAX_SUBAGENTS || found.length >= MAX_FILES) return
      if (entry.name.endsWith('.jsonl') && entry.isFile()) {
        found.push({ file: path.join(at, entry.name), parent })
        kept++
      }
    }
  }
}

/**
 * Folds the later files of our sessions kept in segments into the entry of the session's first file in this
 * directory (the recorder's one rule: `segmentedSessions`): reading that file reads them all, so a segment
 * listed on its own would show the session twice. Only names with a segment's shape are opened.
 */
async function foldSegments(dir: string, prefix: string, names: string[], found: FoundFile[]): Promise<void> {
  if (!names.some((name) => segmentNameParts(name) !== undefined)) return
  const { byFirst, later } = await segmentedSessions(dir, names)
  if (later.size === 0) return
  // Synchronous from here: other walkers push to `found` only between awaits.
  const here = (entry: FoundFile): string | undefined => {
    if (entry.parent !== undefined || !entry.file.startsWith(prefix)) return undefined
    const name = entry.file.slice(prefix.length)
    return name.includes(path.sep) ? undefined : name
  }
  const kept: FoundFile[] = []
  for (const entry of found) {
    const name = here(entry)
    if (name !== undefined && later.has(name)) continue
    const files = name === undefined ? undefined : byFirst.get(name)
    kept.push(
      files === undefined || files.length < 2
        ? entry
        : { ...entry, segments: files.slice(1).map((file) => file.path) },
    )
  }
  found.splice(0, found.length, ...kept)
  names.splice(0, names.length, ...names.filter((name) => !later.has(name)))
}
