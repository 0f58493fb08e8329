import { randomBytes } from 'node:crypto'
import { constants } from 'node:fs'
import { copyFile, link, lstat, open, rename, rm, stat, type FileHandle } from 'node:fs/promises'
import path from 'node:path'
import { classifiedLines } from '../read/classified-lines.js'
import { fileOwnership } from '../read/file-ownership.js'
import { ForeignFileError } from '../read/foreign-file-error.js'
import type { ReadProblem } from '../read/problem.js'
import { scanTranscript } from '../read/scan-transcript.js'
import { stringifyJson } from '../read/stringify-json.js'
import type { ClassifiedLine } from '../read/torn-line-tracker.js'
import { openNewQuarantine } from './open-quarantine.js'
import { QUARANTINE_NAME_ATTEMPTS, quarantinePathFor } from './quarantine-name.js'
import { syncDirectory } from './sync-directory.js'

export interface RepairTranscriptOptions {
  /**
   * Write the repaired copy here and leave the original untouched. Must not exist yet — not even as a
   * dangling symlink: it is created with a hard link, which never follows or replaces anything.
   * @default undefined (replace the original atomically, after keeping a backup next to it)
   */
  readonly out?: string
  /** Only report what would change; write nothing. @default false */
  readonly dryRun?: boolean
  /** @internal Test seam: a line longer than this makes the repair refuse (default: the longest decodable line). */
  readonly maxLineBytes?: number
}

export interface TranscriptRepair {
  readonly filePath: string
  /** Where the repaired transcript is (the original path unless `out` was given). */
  readonly outPath: string
  /** True when the transcript had line damage to repair (in a dry run: would have been repaired). */
  readonly changed: boolean
  /** Byte-for-byte copy of the original, kept next to it before it was replaced; null when not replaced. */
  readonly backupPath: string | null
  /** The damaged lines and the torn tail, byte-for-byte, in file order; null when there were none. */
  readonly quarantinePath: string | null
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
const NEWLINE = Buffer.from('\n')
/** Problems a repair leaves alone: fixing them would mean guessing at history. */
const LINK_KINDS: ReadonlySet<ReadProblem['kind']> = new Set(['orphan', 'duplicate-uuid', 'cycle'])

function refusal(message: string, code: string): Error {
  return Object.assign(new Error(message), { code })
}

/**
 * Writes a repaired copy of a transcript: torn tail and unreadable lines moved to a quarantine sidecar,
 * glued records split onto their own lines, NUL runs removed; every intact line is kept as it was. The
 * copy is written to a temporary file, fsynced and renamed into place, after a backup of the original.
 *
 * Refuses (code `EFOREIGNFILE`, nothing written, in a dry run too) a file that is not ours, and (code
 * `ENORECORDS`) a repair that would keep no record: it never leaves an empty transcript. Memory stays
 * flat: the lines are streamed, damaged ones straight into the quarantine file.
 */
export async function repairTranscript(
  filePath: string,
  options: RepairTranscriptOptions = {},
): Promise<TranscriptRepair> {
  const before = await stat(filePath)
  const owner = await fileOwnership(filePath)
  const empty = { filePath, outPath: options.out ?? filePath, changed: false, backupPath: null }
  if (owner.verdict === 'empty') {
    return { ...empty, quarantinePath: null, records: 0, fixed: [], fixedCount: 0, remaining: [] }
  }
  if (owner.verdict !== 'ours') throw new ForeignFileError(filePath, owner.verdict, owner.reason)
  const dryRun = options.dryRun === true
  if (options.out === undefined && !dryRun && (await lstat(filePath)).isSymbolicLink()) {
    throw refusal(
      `${filePath} is a symlink; repair the file it points to, or write a repaired copy with --out. Nothing was changed.`,
      'ESYMLINK',
    )
  }
  const outPath = options.out ?? filePath
  if (options.out !== undefined) await refuseExisting(options.out)
  const tempPath = path.join(
    path.dirname(outPath),
    `.${path.basename(outPath)}.repair-${randomBytes(6).toString('hex')}`,
  )
  const output = dryRun ? undefined : await open(tempPath, 'wx', PRIVATE_MODE)
  const fixed: ReadProblem[] = []
  let fixedCount = 0
  let records = 0
  let quarantine: { handle: FileHandle; quarantinePath: string } | undefined
  let committed = false
  try {
    const writer = new BatchWriter(output)
    const quarantined = new BatchWriter(undefined)
    // Output bytes minus input bytes so far: while 0, a recovered torn range is still where its record says.
    let shift = 0
    const fix = (problems: readonly ReadProblem[]): void => {
      for (const problem of problems) {
        fixedCount++
        if (fixed.length < KEPT_PROBLEMS) fixed.push(problem)
      }
    }
    const toQuarantine = async (bytes: Buffer, terminated: boolean): Promise<void> => {
      if (dryRun) return
      if (quarantine === undefined) {
        quarantine = await openNewQuarantine(filePath)
        quarantined.attach(quarantine.handle)
      }
      await quarantined.write(bytes, ...(terminated ? [NEWLINE] : []))
    }
    const copy = async (entry: ClassifiedLine<Buffer | undefined>): Promise<void> => {
      const bytes = entry.payload!
      const terminated = entry.problems[0]?.kind !== 'torn-tail'
      if (bytes.length !== entry.length) {
        // Its bytes were never read (too long to hold), so they could not be quarantined: refuse.
        throw refusal(
          `line ${entry.line} of ${filePath} is ${entry.length} bytes long, too long to read; nothing was changed`,
          'ELINETOOLONG',
        )
      }
      records += entry.records.length
      if (entry.recovered !== undefined && shift === 0) {
        // Torn bytes a `recovered` record names, still at the offsets it names: not damage, kept.
        await writer.write(bytes, NEWLINE)
        return
      }
      if (entry.problems.length === 0 && entry.recovered === undefined) {
        await writer.write(bytes, NEWLINE)
        return
      }
      fix(
        entry.recovered === undefined
          ? entry.problems
          : [
              {
                line: entry.line,
                offset: entry.offset,
                kind: entry.recovered.kinds[0] ?? 'invalid-json',
                detail: `recovered torn bytes moved: lines before them changed, so their \`recovered\` record no longer names them`,
              },
            ],
      )
      await toQuarantine(bytes, terminated)
      shift -= bytes.length + (terminated ? 1 : 0)
      for (const record of entry.records) {
        const line = Buffer.from(`${stringifyJson(record)}\n`)
        await writer.write(line)
        shift += line.length
      }
    }
    for await (const batch of classifiedLines(filePath, { maxLineBytes: options.maxLineBytes, raw: true })) {
      for (const entry of batch) await copy(entry)
    }
    if (fixedCount === 0 || dryRun) {
      // Nothing written: what remains is what the original has beyond the line damage.
      const scan = await scanTranscript(filePath, { maxLineBytes: options.maxLineBytes, keep: KEPT_PROBLEMS })
      const remaining = scan.problems.filter((problem) => LINK_KINDS.has(problem.kind))
      return {
        ...empty,
        outPath,
        changed: fixedCount > 0,
        quarantinePath: null,
        records,
        fixed,
        fixedCount,
        remaining,
      }
    }
    if (records === 0) {
      throw refusal(
        `no record of ${filePath} could be kept, so a repair would leave it empty; nothing was changed`,
        'ENORECORDS',
      )
    }
    await writer.end()
    await quarantined.end()
    const after = await stat(filePath)
    if (after.size !== before.size || after.mtimeMs !== before.mtimeMs || after.ino !== before.ino) {
      throw refusal(
        `${filePath} changed while it was being repaired; nothing was replaced. Try again.`,
        'ETRANSCRIPTCHANGED',
      )
    }
    let backupPath: string | null = null
    if (options.out === undefined) {
      backupPath = await backup(filePath)
      await output!.chmod(before.mode & 0o777)
      await rename(tempPath, outPath)
    } else {
      // link() fails with EEXIST if anything (a file, a dangling symlink) took the name meanwhile.
      await link(tempPath, outPath)
      await rm(tempPath, { force: true })
    }
    committed = true
    await syncDirectory(path.dirname(outPath))
    const { problems: remaining } = await scanTranscript(outPath, {
      maxLineBytes: options.maxLineBytes,
      keep: KEPT_PROBLEMS,
    })
    const quarantinePath = quarantine?.quarantinePath ?? null
    return {
      filePath,
      outPath,
      changed: true,
      backupPath,
      quarantinePath,
      records,
      fixed,
      fixedCount,
      remaining,
    }
  } finally {
    await output?.close()
    await quarantine?.handle.close()
    if (!committed) {
      if (output !== undefined) await rm(tempPath, { force: true })
      // Nothing was replaced: a quarantine of bytes that are still in the original is not needed.
      if (quarantine !== undefined) await rm(quarantine.quarantinePath, { force: true })
    }
  }
}

/** Collects output bytes and writes them in large pieces; a no-op until it has a file. */
class BatchWriter {
  #handle: FileHandle | undefined
  #pending: Buffer[] = []
  #pendingBytes = 0
  constructor(handle: FileHandle | undefined) {
    this.#handle = handle
  }
  attach(handle: FileHandle): void {
    this.#handle = handle
  }
  async write(...pieces: Buffer[]): Promise<void> {
    if (this.#handle === undefined) return
    for (const piece of pieces) {
      this.#pending.push(piece)
      this.#pendingBytes += piece.length
    }
    if (this.#pendingBytes >= WRITE_BATCH) await this.#drain()
  }
  async end(): Promise<void> {
    await this.#drain()
    await this.#handle?.sync()
  }
  async #drain(): Promise<void> {
    if (this.#handle === undefined || this.#pending.length === 0) return
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

/** `<file>.bak-<UTC time>`: a byte-for-byte, fsynced copy made before the original is replaced. */
async function backup(filePath: string): Promise<string> {
  const now = new Date()
  for (let attempt = 0; attempt < QUARANTINE_NAME_ATTEMPTS; attempt++) {
    const backupPath = quarantinePathFor(filePath, now, attempt).replace(/\.torn-(?=[^.]*$)/, '.bak-')
    try {
      await copyFile(filePath, backupPath, constants.COPYFILE_EXCL)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue
      throw error
    }
    const handle = await open(backupPath, 'r')
    try {
      await handle.sync()
    } finally {
      await handle.close()
    }
    return backupPath
  }
  throw new Error(`Could not find a free backup file name next to ${filePath}`)
}
