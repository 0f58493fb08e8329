/**
 * Conversation events → an export document, streamed: each turn is written as soon as the next one starts,
 * so memory holds one turn, not the session. The same turns feed both formats.
 */
import type { ConversationEvent, Usage } from '../model.js'
import type { RedactionReport, Redactor } from '../redact/redactor.js'
import { ISLAND_TURNS, pageHead, pageIsland, pageScript, pageTail } from './html.js'
import { markdownFooter, markdownHeader, markdownTurn } from './markdown.js'
import { showControls } from './text-safety.js'
import { TurnBuilder, type SessionFacts, type Turn } from './turns.js'
import type { OnBranch } from './branch-pass.js'

export type ExportFormat = 'html' | 'md'

export interface RenderOptions {
  readonly format: ExportFormat
  /** Replaces secrets in every text shown. */
  readonly redactor?: Redactor
  readonly onBranch?: OnBranch
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
  options: Pick<RenderOptions, 'redactor' | 'onBranch' | 'activeOnly'>,
): TurnBuilder {
  const { redactor } = options
  // Terminal controls become visible stand-ins in the data itself, so no renderer can forget them.
  return new TurnBuilder({
    ...(options.onBranch === undefined ? {} : { onBranch: options.onBranch }),
    activeOnly: options.activeOnly,
    text: redactor === undefined ? showControls : (text: string) => showControls(redactor.redactText(text)),
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
  /** HTML: the turns of the island being filled, and whether the script is out (it follows the first island). */
  let island: Turn[] = []
  let scriptOut = false
  const flushIsland = async (): Promise<void> => {
    await write(pageIsland(island) + (scriptOut ? '' : pageScript()))
    scriptOut = true
    island = []
  }
  const emit = async (turn: Turn): Promise<void> => {
    written++
    if (options.format === 'md') {
      await write((written === 1 ? markdownHeader(builder.facts) : '') + markdownTurn(turn))
      return
    }
    island.push(turn)
    if (island.length >= ISLAND_TURNS) await flushIsland()
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
        markdownFooter(builder.facts, builder.total, written, redaction),
    )
  } else {
    if (island.length > 0 || !scriptOut) await flushIsland()
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
    await write(pageTail(pageMeta(builder.facts, builder.total, extra)))
  }
  return {
    turns: written,
    usage: builder.total,
    facts: builder.facts,
    ...(redaction === undefined ? {} : { redaction }),
  }
}
