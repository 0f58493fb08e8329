import { SessiontapeError } from '../errors.js'
import { randomBytes } from 'node:crypto'
import { link, lstat, open, rm, stat, type FileHandle } from 'node:fs/promises'
import path from 'node:path'
import { classifiedLines } from '../read/classified-lines.js'
import { fileOwnership } from '../format/file-ownership.js'
import { ForeignFileError } from '../format/foreign-file-error.js'
import type { ReadProblem } from '../format/problem.js'
import { scanTranscript } from '../read/scan-transcript.js'
import { notARegularFile } from '../write/resume/inspect-tail.js'
import { stringifyJson } from '../util/stringify-json.js'
import { NEWLINE, sidecarDirOfFile } from '../format/record-format.js'
import { ensureSidecarDir } from '../format/sidecar-dir.js'
import { repairTornTailSync } from './repair-torn-tail.js'
import { SIDECAR_NAME_ATTEMPTS, sidecarPathFor } from '../format/sidecar-name.js'
import { syncDirectory } from '../util/sync-directory.js'
import { rejectUnknownOptions } from '../util/unknown-options.js'

export interface RepairTranscriptOptions {
  /**
   * Write the repaired copy here. Must not exist yet — not even as a dangling symlink: it is created with
   * a hard link, which never follows or replaces anything.
   * @default undefined (a new name in the sidecar directory, `<dir>/.sessiontape/<name>.repaired-<time>`)
   */
  readonly out?: string
  /** Only report what would change; write nothing. @default false */
  readonly dryRun?: boolean
  /** A line longer than this makes the repair refuse (the CLI passes its own bound) (default: the longest decodable line). */
  readonly maxLineBytes?: number
}

/**
 * What a repair did (in a dry run: would do). `none`: nothing to repair. `appended`: the only damage was
 * a torn tail, repaired in place the append-only way (a newline and a `recovered` record naming the torn
 * bytes; the transcript only grew). `copied`: a repaired copy was written to `outPath`; the transcript
 * itself is unchanged.
 */
export type RepairAction = 'none' | 'appended' | 'copied'

export interface TranscriptRepair {
  readonly filePath: string
  readonly action: RepairAction
  /**
   * Where the repaired transcript is: the copy for `copied`, the transcript itself otherwise. Null in a
   * dry run that would write a copy to a name not chosen yet.
   */
  readonly outPath: string | null
  /** True when the transcript had line damage to repair (in a dry run: would have been repaired). */
  readonly changed: boolean
  /** uuid of the `recovered` record an `appended` repair wrote; null otherwise. */
  readonly recoveredUuid: string | null
  readonly records: number
  /** Line-level problems the repair removed (the first {@link KEPT_PROBLEMS}; `fixedCount` counts them all). */
  readonly fixed: ReadProblem[]
  readonly fixedCount: number
  /** Problems the repair does not change (orphans, duplicate uuids, cycles), as read back from the result. */
  readonly remaining: ReadProblem[]
}

/** Problems listed in a report; a file of garbage has millions, and the report must stay small. */
export const KEPT_PROBLEMS = 1000
/** Output is written in batches of about this size. */
const WRITE_BATCH = 1024 * 1024
const PRIVATE_MODE = 0o600
// The newline as a buffer, for writes that take buffers only.
const LINE_END = Buffer.of(NEWLINE)
/** Problems a repair leaves alone: fixing them would mean guessing at history. */
const LINK_KINDS: ReadonlySet<ReadProblem['kind']> = new Set(['orphan', 'duplicate-uuid', 'cycle'])

function refusal(message: string, code: string): Error {
  return new SessiontapeError(code, message)
}

/**
 * Repairs a transcript without ever rewriting it, so a log shipper tailing it keeps a valid offset:
 * - a torn tail and nothing else: repaired in place, append-only, like a resuming recorder does (the torn
 *   bytes stay, a `recovered` record names them) — the caller must hold the session lock;
 * - any other line damage: a repaired copy is written to a new name that a shipper's glob does not match
 *   (`out`, or `<dir>/.sessiontape/<name>.repaired-<time>`): unreadable lines and the torn tail left out,
 *   glued records split onto their own lines, NUL runs removed, every intact line kept byte for byte. The
 *   transcript itself is not touched: switching to the copy is the user's move (see `sessiontape repair`).
 *
 * Refuses (code `ERR_FOREIGN_FILE`, nothing written, in a dry run too) a file that is not ours, (code
 * `ERR_REPAIR_NO_RECORDS`) a copy that would keep no record, and (code `ERR_REPAIR_SYMLINK`) to append through a symlink. Memory stays flat: the lines are streamed.
 */
export async function repairTranscript(
  filePath: string,
  options: RepairTranscriptOptions = {},
): Promise<TranscriptRepair> {
  rejectUnknownOptions(options, ['out', 'dryRun', 'maxLineBytes'], 'repairTranscript()')
  const before = await stat(filePath)
  // A FIFO (or socket, device) would block the reads below, or take bytes meant for someone else.
  if (!before.isFile() && !before.isDirectory()) throw notARegularFile(filePath)
  const owner = await fileOwnership(filePath)
  const none = { filePath, action: 'none', outPath: filePath, changed: false, recoveredUuid: null } as const
  if (owner.verdict === 'empty') return { ...none, records: 0, fixed: [], fixedCount: 0, remaining: [] }
  if (owner.verdict !== 'ours') throw new ForeignFileError(filePath, owner.verdict, owner.reason)
  const dryRun = options.dryRun === true
  if (options.out !== undefined) await refuseExisting(options.out)

  // First pass: classify only. A torn tail alone is repaired in place; anything else needs a copy.
  const scan = await copyLines(filePath, undefined, options.maxLineBytes)
  const { fixed, fixedCount, records } = scan
  const tornTailOnly = fixedCount === 1 && fixed[0]?.kind === 'torn-tail'
  const action: RepairAction =
    fixedCount === 0 ? 'none' : tornTailOnly && options.out === undefined ? 'appended' : 'copied'
  const counts = { records, fixed, fixedCount }
  if (action === 'copied' && scan.tooLong !== undefined) {
    // Its bytes were never read (too long to hold), so they could not be copied: refuse.
    throw refusal(
      `line ${scan.tooLong.line} of ${filePath} is ${scan.tooLong.length} bytes long, too long to read; nothing was changed`,
      'ERR_LINE_TOO_LONG',
    )
  }
  if (action === 'none' || dryRun) {
    // Nothing written: what remains is what the original has beyond the line damage.
    const remaining = await remainingProblems(filePath, options.maxLineBytes)
    const outPath = action === 'copied' ? (options.out ?? null) : filePath
    return { ...none, action, outPath, changed: fixedCount > 0, ...counts, remaining }
  }
  if (action === 'appended') {
    if ((await lstat(filePath)).isSymbolicLink()) {
      throw refusal(
        `${filePath} is a symlink; repair the file it points to, or write a repaired copy with --out. Nothing was changed.`,
        'ERR_REPAIR_SYMLINK',
      )
    }
    // Append-only, in place: a shipper tailing the file ships the `recovered` record, nothing twice.
    const appended = repairTornTailSync(filePath)
    const remaining = await remainingProblems(filePath, options.maxLineBytes)
    return { ...none, action, changed: true, recoveredUuid: appended.recoveredUuid, ...counts, remaining }
  }
  if (records === 0) {
    throw refusal(
      `no record of ${filePath} could be kept, so a repaired copy would be empty; nothing was written`,
      'ERR_REPAIR_NO_RECORDS',
    )
  }
  const outPath = await writeCopy(filePath, before, options)
  const remaining = await remainingProblems(outPath, options.maxLineBytes)
  return { ...none, action, outPath, changed: true, ...counts, remaining }
}

async function remainingProblems(filePath: string, maxLineBytes: number | undefined): Promise<ReadProblem[]> {
  const scan = await scanTranscript(filePath, { oneFile: true, maxLineBytes, keep: KEPT_PROBLEMS })
  return scan.problems.filter((problem) => LINK_KINDS.has(problem.kind))
}

/**
 * Second pass: the repaired lines into a private temporary file beside the destination (a dot-name in the
 * sidecar directory, or beside `out`), fsynced, then hard-linked to its name — which never replaces
 * anything — and given the transcript's mode, so the copy can take the transcript's place as it is.
 */
async function writeCopy(
  filePath: string,
  before: { size: number; mtimeMs: number; ino: number; mode: number },
  options: RepairTranscriptOptions,
): Promise<string> {
  const outDir = options.out === undefined ? sidecarDirOfFile(filePath) : path.dirname(options.out)
  if (options.out === undefined) await ensureSidecarDir(outDir)
  const tempName = path.basename(options.out ?? filePath)
  const tempPath = path.join(outDir, `.${tempName}.repair-${randomBytes(6).toString('hex')}`)
  const output = await open(tempPath, 'wx', PRIVATE_MODE)
  try {
    const writer = new BatchWriter(output)
    await copyLines(filePath, writer, options.maxLineBytes)
    await writer.end()
    const after = await stat(filePath)
    if (after.size !== before.size || after.mtimeMs !== before.mtimeMs || after.ino !== before.ino) {
      throw refusal(
        `${filePath} changed while it was being repaired; no copy was written. Try again.`,
        'ERR_TRANSCRIPT_CHANGED',
      )
    }
    await output.chmod(before.mode & 0o777)
    const outPath = options.out ?? (await linkToNewName(tempPath, filePath))
    // link() fails with EEXIST if anything (a file, a dangling symlink) took the name meanwhile.
    if (options.out !== undefined) await link(tempPath, outPath)
    await syncDirectory(outDir)
    // A sidecar directory made just now (ensureSidecarDir above) is an entry of its parent: synced too.
    if (options.out === undefined) await syncDirectory(path.dirname(outDir))
    return outPath
  } finally {
    await output.close()
    await rm(tempPath, { force: true })
  }
}

/** Links `tempPath` to the first free `<dir>/.sessiontape/<name>.repaired-<time>[-n]`. */
async function linkToNewName(tempPath: string, filePath: string): Promise<string> {
  const now = new Date()
  for (let attempt = 0; attempt < SIDECAR_NAME_ATTEMPTS; attempt++) {
    const outPath = sidecarPathFor(filePath, 'repaired', now, attempt)
    try {
      await link(tempPath, outPath)
      return outPath
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
  }
  throw new Error(`Could not find a free name for the repaired copy of ${filePath}`)
}

interface CopyPass {
  readonly records: number
  readonly fixed: ReadProblem[]
  readonly fixedCount: number
  /** The first line too long to read, if any (only a classifying pass gets this far with one). */
  readonly tooLong: { readonly line: number; readonly length: number } | undefined
}

/**
 * One pass over the transcript's lines: what to keep, what is damage. With a writer the kept lines are
 * written to it (and a line too long to read refuses the repair); without one the pass only classifies.
 */
async function copyLines(
  filePath: string,
  writer: BatchWriter | undefined,
  maxLineBytes: number | undefined,
): Promise<CopyPass> {
  const fixed: ReadProblem[] = []
  let fixedCount = 0
  let records = 0
  let tooLong: CopyPass['tooLong']
  // Output bytes minus input bytes so far: while 0, a recovered torn range is still where its record says.
  let shift = 0
  for await (const batch of classifiedLines(filePath, { maxLineBytes, raw: true, oneFile: true })) {
    for (const entry of batch) {
      const bytes = entry.payload!
      const terminated = entry.problems[0]?.kind !== 'torn-tail'
      if (bytes.length !== entry.length) {
        if (writer !== undefined) {
          throw refusal(
            `line ${entry.line} of ${filePath} is ${entry.length} bytes long, too long to read; nothing was changed`,
            'ERR_LINE_TOO_LONG',
          )
        }
        tooLong ??= { line: entry.line, length: entry.length }
      }
      records += entry.records.length
      if (entry.recovered !== undefined && shift === 0) {
        // Torn bytes a `recovered` record names, still at the offsets it names: not damage, kept.
        await writer?.write(bytes, LINE_END)
        continue
      }
      if (entry.problems.length === 0 && entry.recovered === undefined) {
        await writer?.write(bytes, LINE_END)
        continue
      }
      const problems =
        entry.recovered === undefined
          ? entry.problems
          : [
              {
                line: entry.line,
                offset: entry.offset,
                kind: entry.recovered.kinds[0] ?? 'invalid-json',
                detail: `recovered torn bytes left out: lines before them changed, so their \`recovered\` record no longer names them`,
              },
            ]
      for (const problem of problems) {
        fixedCount++
        if (fixed.length < KEPT_PROBLEMS) fixed.push(problem)
      }
      shift -= entry.length + (terminated ? 1 : 0)
      for (const record of entry.records) {
        const line = Buffer.from(`${stringifyJson(record)}\n`)
        await writer?.write(line)
        shift += line.length
      }
    }
  }
  return { records, fixed, fixedCount, tooLong }
}

/** Collects output bytes and writes them in large pieces. */
class BatchWriter {
  readonly #handle: FileHandle
  #pending: Buffer[] = []
  #pendingBytes = 0
  constructor(handle: FileHandle) {
    this.#handle = handle
  }
  async write(...pieces: Buffer[]): Promise<void> {
    for (const piece of pieces) {
      this.#pending.push(piece)
      this.#pendingBytes += piece.length
    }
    if (this.#pendingBytes >= WRITE_BATCH) await this.#drain()
  }
  async end(): Promise<void> {
    await this.#drain()
    await this.#handle.sync()
  }
  async #drain(): Promise<void> {
    if (this.#pending.length === 0) return
    const bytes = Buffer.concat(this.#pending)
    this.#pending = []
    this.#pendingBytes = 0
    await this.#handle.writeFile(bytes)
  }
}

/** `out` must be free: lstat, so a dangling symlink there counts as taken (it is never followed or replaced). */
async function refuseExisting(out: string): Promise<void> {
  try {
    await lstat(out)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
    throw error
  }
  throw refusal(
    `${out} already exists; the repaired copy never overwrites a file or follows a symlink`,
    'EEXIST',
  )
}
