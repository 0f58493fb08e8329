/**
 * `exportSession()`: a transcript of any format we read → Markdown or one self-contained HTML page, streamed
 * (memory holds one turn and the branch links, not the session). The active branch is found in a first
 * pass over the records' links (branch-pass.ts); the second pass streams the conversation, with the
 * subagent transcripts kept in files of their own joined in (subagent-files.ts), and renders it.
 */
import { randomBytes } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { lstat, realpath, rename, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { once } from 'node:events'
import type { ReadProblem } from '@sessiontape/recorder'
import { streamConversation } from '../stream-conversation.js'
import { Redactor } from '../redact/redactor.js'
import { activeBranchOf } from './branch-pass.js'
import { checkExportOptions, type ExportOptions } from './options.js'
import { renderEvents, type RenderSummary } from './render.js'
import { ExportError } from './export-error.js'
import { withSubagents } from './subagent-files.js'

/**
 * How much of the export may wait for the disk before rendering pauses. With the stream's default (16 KiB),
 * every island (~200 KiB) waited for its own write before the next turn was rendered: rendering and
 * writing took turns instead of overlapping, and `--out` cost 60 % more than rendering alone.
 */
const OUT_BUFFER_BYTES = 8 * 1024 * 1024

export interface ExportResult extends RenderSummary {
  /** The export, when neither `out` nor `write` was given. */
  readonly text?: string
  /** Problems the reader found in the transcript (damaged lines…); the export shows what could be read. */
  readonly problems: number
}

async function sameFile(a: string, b: string): Promise<boolean> {
  try {
    return (await realpath(a)) === (await realpath(b))
  } catch {
    // `b` does not exist yet: it cannot be the transcript.
    return false
  }
}

export async function exportSession(file: string, options: ExportOptions = {}): Promise<ExportResult> {
  if (typeof file !== 'string' || file === '') {
    throw new TypeError(`Expected \`file\` to be a non-empty path, got \`${String(file)}\` (${typeof file})`)
  }
  const checked = checkExportOptions(options)
  const { out, signal } = checked
  if (out !== undefined) {
    if (await sameFile(file, out))
      throw new ExportError('ERR_EXPORT_OUT', `Refusing to export onto the transcript itself: ${out}`)
    const existing = await lstat(out).catch(() => undefined)
    if (existing !== undefined && !existing.isFile()) {
      throw new ExportError(
        'ERR_EXPORT_OUT',
        `Refusing to replace something that is not a regular file: ${out}`,
      )
    }
  }
  const read = {
    format: checked.transcriptFormat,
    maxLineBytes: checked.maxLineBytes,
    ...(signal === undefined ? {} : { signal }),
  }
  const onBranch = await activeBranchOf(file, read)
  let problems = 0
  const onProblem = (_: ReadProblem): void => void problems++
  const events = withSubagents(file, streamConversation(file, { ...read, onProblem }), {
    ...read,
    onProblem,
  })
  const render = {
    format: checked.format,
    keepImages: checked.keepImages,
    activeOnly: checked.branch === 'active',
    onBranch,
    file,
    ...(checked.redact ? { redactor: new Redactor() } : {}),
  }
  if (checked.write !== undefined) {
    const write = checked.write
    const summary = await renderEvents(
      events,
      render,
      async (chunk) => {
        signal?.throwIfAborted()
        await write(chunk)
      },
      () => problems,
    )
    return { ...summary, problems }
  }
  if (out === undefined) {
    const parts: string[] = []
    const summary = await renderEvents(
      events,
      render,
      (chunk) => {
        signal?.throwIfAborted()
        parts.push(chunk)
      },
      () => problems,
    )
    return { ...summary, problems, text: parts.join('') }
  }
  // Written beside the target and renamed over it: a reader sees the old export or the whole new one.
  const temp = join(dirname(out), `.${basename(out)}.${randomBytes(6).toString('hex')}.tmp`)
  const stream = createWriteStream(temp, { flags: 'wx', highWaterMark: OUT_BUFFER_BYTES })
  try {
    const summary = await renderEvents(
      events,
      render,
      async (chunk) => {
        signal?.throwIfAborted()
        if (!stream.write(chunk)) await once(stream, 'drain')
      },
      () => problems,
    )
    stream.end()
    await once(stream, 'finish')
    await rename(temp, out)
    return { ...summary, problems }
  } catch (error) {
    stream.destroy()
    await rm(temp, { force: true })
    throw error
  }
}
