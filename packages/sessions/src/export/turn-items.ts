/**
 * What a turn holds: the items both renderers show, as plain JSON (the page reads them from its islands).
 * Every string in an item is transcript text made safe for its renderer (turns.ts); style runs, image URIs
 * and diff lines are built here from checked parts only (ansi.ts, images.ts, diffs.ts).
 */
import type { StyleRun } from './ansi.js'
import type { ShownImage } from './images.js'

/** What every item carries. */
export interface ItemBase {
  /** The event's id. */
  readonly id: string
  readonly ts?: string
  /** Not on the active branch (a rewound or side branch). */
  readonly off?: true
  /** A subagent's (sidechain) item, with its agent id ('' when unknown). */
  readonly sub?: string
}

export type ToolItem = ItemBase & {
  readonly t: 'tool'
  readonly name: string
  readonly callId: string
  /** The arguments, pretty JSON (a string argument as is); an edit's text is in `diff` instead. */
  readonly input: string
  /** The edit the call makes, as diff lines (see diffs.ts). */
  diff?: string
  /** The result's text, once it arrived. */
  output?: string
  isError?: boolean
  /** Terminal styles of `output` (HTML only). */
  ansi?: StyleRun[]
  images?: ShownImage[]
  /** The subagent the call spawned… */
  agent?: string
  /** …and its transcript's items, joined under the call. */
  items?: TurnItem[]
}

export type TurnItem =
  | (ItemBase & {
      readonly t: 'text'
      readonly role: 'user' | 'assistant'
      readonly text: string
      readonly model?: string
      readonly ansi?: StyleRun[]
    })
  | (ItemBase & { readonly t: 'image'; readonly role: 'user' | 'assistant'; readonly image: ShownImage })
  | (ItemBase & {
      readonly t: 'command'
      readonly name?: string
      readonly args?: string
      readonly out?: string
      readonly isError?: boolean
      readonly ansi?: StyleRun[]
    })
  | (ItemBase & { readonly t: 'thinking'; readonly text: string })
  | ToolItem
  | (ItemBase & {
      readonly t: 'result'
      readonly callId: string
      readonly output: string
      readonly isError: boolean
      readonly ansi?: StyleRun[]
      readonly images?: ShownImage[]
    })
  | (ItemBase & {
      readonly t: 'marker'
      readonly marker: string
      readonly text: string
      readonly ansi?: StyleRun[]
    })
  | (ItemBase & { readonly t: 'compaction'; readonly summary?: string })
  | (ItemBase & { readonly t: 'title'; readonly title: string })

/** A text as an item shows it: the text, and its terminal styles when the renderer shows them. */
export interface Styled {
  readonly text: string
  readonly runs?: StyleRun[]
}

/** `{ ansi }` when there are runs, else nothing (an item carries no empty field). */
export function ansiField(styled: Styled): { ansi?: StyleRun[] } {
  return styled.runs === undefined ? {} : { ansi: styled.runs }
}
