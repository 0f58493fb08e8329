import { constants } from 'node:fs'
import { copyFile, open, rename, rm, stat, type FileHandle } from 'node:fs/promises'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import type { SessionRecord } from '../record-format.js'
import { lineBatches, type LineTail } from '../read/line-batches.js'
import { parseLine, tornTailProblem, type LineSink } from '../read/parse-line.js'
import type { ReadProblem } from '../read/problem.js'
import { readSession } from '../read/read-session.js'
import { openNewQuarantine } from './open-quarantine.js'
import { QUARANTINE_NAME_ATTEMPTS, quarantinePathFor } from './quarantine-name.js'
import { syncDirectory } from './sync-directory.js'

export interface RepairTranscriptOptions {
  /**
   * Write the repaired copy here and leave the original untouched. Must not exist yet.
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
  /** Line-level problems the repair removed. */
  readonly fixed: ReadProblem[]
  /** Problems the repair does not change (orphans, duplicate uuids, cycles), as read back from the result. */
  readonly remaining: ReadProblem[]
}

/** Output is written in batches of about this size. */
const WRITE_BATCH = 1024 * 1024
const PRIVATE_MODE = 0o600
const NEWLINE = Buffer.from('\n')
/** Problems a repair leaves alone: fixing them would mean guessing at history. */
const LINK_KINDS: ReadonlySet<ReadProblem['kind']> = new Set(['orphan', 'duplicate-uuid', 'cycle'])

/**
 * Writes a repaired copy of a transcript: torn tail and unreadable lines moved to a quarantine sidecar,
 * glued records split onto their own lines, NUL runs removed; every intact line is kept as it was. The
 * copy is written to a temporary file, fsynced and renamed into place, after a backup of the original.
 */
export async function repairTranscript(
  filePath: string,
  options: RepairTranscriptOptions = {},
): Promise<TranscriptRepair> {
  const before = await stat(filePath)
  const outPath = options.out ?? filePath
  if (options.out !== undefined) await refuseExisting(options.out)
  const tempPath = path.join(
    path.dirname(outPath),
    `.${path.basename(outPath)}.repair-${randomBytes(6).toString('hex')}`,
  )
  const output = options.dryRun === true ? undefined : await open(tempPath, 'wx', PRIVATE_MODE)
  const fixed: ReadProblem[] = []
  const quarantined: Buffer[] = []
  let records = 0
  let committed = false
  try {
    const writer = new BatchWriter(output)
    const line = new LineCollector()
    let tail: LineTail | undefined
    const batches = lineBatches(filePath, {
      onTail: (found) => (tail = found),
      onOverlong: (line, bytes) => {
        // Its bytes cannot be held to quarantine them, and dropping them would delete data: refuse.
        throw Object.assign(
          new Error(
            `line ${line} of ${filePath} is ${bytes} bytes long, too long to read; nothing was changed`,
          ),
          { code: 'ELINETOOLONG' },
        )
      },
      maxLineBytes: options.maxLineBytes,
      // Intact lines and quarantined ones are copied as bytes: decoding would replace invalid UTF-8.
      raw: true,
    })
    for await (const batch of batches) {
      for (let i = 0; i < batch.lines.length; i++) {
        const bytes = batch.raw[i]!
        line.reset()
        parseLine(batch.lines[i]!, batch.firstLine + i, line)
        records += line.records.length
        if (line.problems.length === 0) {
          if (line.records.length > 0) await writer.write(bytes, NEWLINE)
          continue
        }
        fixed.push(...line.problems)
        quarantined.push(bytes, NEWLINE)
        for (const record of line.records) await writer.write(Buffer.from(`${JSON.stringify(record)}\n`))
      }
    }
    const torn = tail
    if (torn !== undefined) {
      fixed.push(tornTailProblem(torn.text, torn.line))
      quarantined.push(torn.bytes)
    }
    if (fixed.length === 0 || output === undefined) {
      // Nothing written: what remains is what the original has beyond the line damage.
      const remaining = (await readSession(filePath)).problems.filter((problem) =>
        LINK_KINDS.has(problem.kind),
      )
      const changed = fixed.length > 0
      return { filePath, outPath, changed, backupPath: null, quarantinePath: null, records, fixed, remaining }
    }
    await writer.end()
    const after = await stat(filePath)
    if (after.size !== before.size || after.mtimeMs !== before.mtimeMs || after.ino !== before.ino) {
      throw Object.assign(
        new Error(`${filePath} changed while it was being repaired; nothing was replaced. Try again.`),
        { code: 'ETRANSCRIPTCHANGED' },
      )
    }
    const quarantinePath = await writeQuarantine(filePath, quarantined)
    let backupPath: string | null = null
    if (options.out === undefined) {
      backupPath = await backup(filePath)
      await output.chmod(before.mode & 0o777)
    }
    await rename(tempPath, outPath)
    committed = true
    await syncDirectory(path.dirname(outPath))
    const { problems: remaining } = await readSession(outPath)
    return { filePath, outPath, changed: true, backupPath, quarantinePath, records, fixed, remaining }
  } finally {
    await output?.close()
    if (!committed && output !== undefined) await rm(tempPath, { force: true })
  }
}

class LineCollector implements LineSink {
  records: SessionRecord[] = []
  problems: ReadProblem[] = []
  reset(): void {
    if (this.records.length > 0) this.records = []
    if (this.problems.length > 0) this.problems = []
  }
  record(record: SessionRecord): void {
    this.records.push(record)
  }
  problem(problem: ReadProblem): void {
    this.problems.push(problem)
  }
}

/** Collects output bytes and writes them in large pieces; a no-op in a dry run. */
class BatchWriter {
  readonly #handle: FileHandle | undefined
  #pending: Buffer[] = []
  #pendingBytes = 0
  constructor(handle: FileHandle | undefined) {
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

async function refuseExisting(out: string): Promise<void> {
  try {
    await stat(out)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
    throw error
  }
  throw Object.assign(new Error(`${out} already exists; the repaired copy never overwrites a file`), {
    code: 'EEXIST',
  })
}

async function writeQuarantine(filePath: string, pieces: readonly Buffer[]): Promise<string> {
  const { handle, quarantinePath } = await openNewQuarantine(filePath)
  try {
    await handle.writeFile(Buffer.concat(pieces))
    await handle.sync()
  } finally {
    await handle.close()
  }
  return quarantinePath
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
