/**
 * Conversation events → an export document, streamed: each turn is written as soon as the next one starts,
 * so memory holds one turn, not the session. The same turns feed both formats.
 */
import type { ConversationEvent, Usage } from '../model.js'
import type { RedactionReport, Redactor } from '../redact/redactor.js'
import {
  ISLAND_CLOSE,
  ISLAND_OPEN,
  ISLAND_SEPARATOR,
  ISLAND_TURNS,
  pageHead,
  pageScript,
  pageTail,
} from './html.js'
import { type HeaderShown, headerShown, markdownFooter, markdownHeader, markdownTurn } from './markdown.js'
import { jsonIsland, showControls } from './text-safety.js'
import { styledText } from './ansi.js'
import { ImageBudget } from './images.js'
import { TurnBuilder, type SessionFacts, type Turn } from './turns.js'
import type { OnBranch } from './branch-pass.js'

export type ExportFormat = 'html' | 'md'

/**
 * The most characters one write of an HTML export holds (one turn may hold more). V8 puts a string of more
 * than 128 KiB in its large-object space: a fresh mapping of memory each, faulted in page by page and
 * unmapped when collected. An island of 100 turns (~220 KB) joined into one string did that ~450 times in
 * the bench's 100 MB export: 0.4–0.9 s of CPU, much of it in the kernel and varying from run to run, where
 * the same bytes in chunks under the limit cost a few milliseconds to build. 32 Ki characters stay under it
 * even as UTF-16.
 */
const HTML_CHUNK_CHARS = 32 * 1024

export interface RenderOptions {
  readonly format: ExportFormat
  /** Replaces secrets in every text shown. */
  readonly redactor?: Redactor
  readonly onBranch?: OnBranch
  /** With `redactor`: show images anyway (they are placeholders otherwise: a screenshot can hold secrets). */
  readonly keepImages?: boolean
  /** Leave out events off the active branch (else they are marked and switchable). */
  readonly activeOnly: boolean
  /** The transcript's path, shown in the page's footer. */
  readonly file?: string
  /** A page served live: its policy lets it connect to its own origin (the event stream). */
  readonly live?: boolean
  /** More for the page's metadata island (a live page's stream URL, whether a line is being written). */
  readonly meta?: { readonly live?: string; readonly pending?: boolean }
}

export interface RenderSummary {
  readonly turns: number
  readonly usage: Usage
  readonly facts: SessionFacts
  readonly redaction?: RedactionReport
}

/** What the page's script reads from the metadata island. */
export function pageMeta(
  facts: SessionFacts,
  total: Usage,
  extra: { file?: string; problems?: number; redaction?: RedactionReport; live?: string; pending?: boolean },
): Record<string, unknown> {
  return { ...facts, total, ...extra }
}

export function turnBuilder(
  options: Pick<RenderOptions, 'redactor' | 'onBranch' | 'activeOnly' | 'keepImages'> & {
    readonly format?: ExportFormat
  },
): TurnBuilder {
  const { redactor } = options
  const redact = redactor === undefined ? (text: string) => text : (text: string) => redactor.redactText(text)
  // Terminal controls become visible stand-ins in the data itself, so no renderer can forget them; a page
  // shows SGR styles instead (ansi.ts), Markdown the stand-ins.
  const text = (value: string): string => showControls(redact(value))
  const page = options.format !== 'md'
  return new TurnBuilder({
    ...(options.onBranch === undefined ? {} : { onBranch: options.onBranch }),
    activeOnly: options.activeOnly,
    text,
    ...(page ? { styled: (value: string) => styledText(redact(value), showControls) } : {}),
    images: new ImageBudget(),
    ...(redactor !== undefined && options.keepImages !== true
      ? { imagePlaceholder: 'left out by redaction (--keep-images keeps them)' }
      : {}),
  })
}

export async function renderEvents(
  events: AsyncIterable<ConversationEvent> | Iterable<ConversationEvent>,
  options: RenderOptions,
  write: (chunk: string) => void | Promise<void>,
  problems: () => number = () => 0,
): Promise<RenderSummary> {
  const builder = turnBuilder(options)
  let written = 0
  /** Markdown: what the header named when it was written (with the first turn). */
  let shown: HeaderShown | undefined
  /** HTML: what is not written yet (under HTML_CHUNK_CHARS), and the turns in the island being written. */
  let pending = ''
  let inIsland = 0
  /** Whether the script is out (it follows the first island). */
  let scriptOut = false
  const put = async (piece: string): Promise<void> => {
    if (pending.length > 0 && pending.length + piece.length > HTML_CHUNK_CHARS) {
      await write(pending)
      pending = ''
    }
    pending += piece
    if (pending.length >= HTML_CHUNK_CHARS) {
      await write(pending)
      pending = ''
    }
  }
  const closeIsland = async (): Promise<void> => {
    await put((inIsland === 0 ? ISLAND_OPEN : '') + ISLAND_CLOSE + (scriptOut ? '' : pageScript()))
    scriptOut = true
    inIsland = 0
  }
  const emit = async (turn: Turn): Promise<void> => {
    written++
    if (options.format === 'md') {
      if (written === 1) shown = headerShown(builder.facts)
      await write((written === 1 ? markdownHeader(builder.facts) : '') + markdownTurn(turn))
      return
    }
    // Encoded now: the island's bytes are the same as pageIsland()'s, and a turn is not held until its
    // island is complete.
    await put((inIsland === 0 ? ISLAND_OPEN : ISLAND_SEPARATOR) + jsonIsland(turn))
    if (++inIsland >= ISLAND_TURNS) await closeIsland()
  }
  if (options.format === 'html')
    await write(pageHead({ title: 'Session · sessiontape', live: options.live === true }))
  for await (const event of events) {
    const done = builder.push(event)
    if (done !== undefined) await emit(done)
  }
  const last = builder.finish()
  if (last !== undefined) await emit(last)
  const redaction = options.redactor?.report()
  if (options.format === 'md') {
    await write(
      (written === 0 ? markdownHeader(builder.facts) : '') +
        markdownFooter(builder.facts, builder.total, written, shown ?? headerShown(builder.facts), redaction),
    )
  } else {
    if (inIsland > 0 || !scriptOut) await closeIsland()
    const extra: {
      file?: string
      problems?: number
      redaction?: RedactionReport
      live?: string
      pending?: boolean
    } = {
      problems: problems(),
      ...options.meta,
    }
    if (options.file !== undefined) extra.file = options.redactor?.redactText(options.file) ?? options.file
    if (redaction !== undefined) extra.redaction = redaction
    await put(pageTail(pageMeta(builder.facts, builder.total, extra)))
    if (pending !== '') await write(pending)
  }
  return {
    turns: written,
    usage: builder.total,
    facts: builder.facts,
    ...(redaction === undefined ? {} : { redaction }),
  }
}
