import {
  readConversation,
  type Conversation,
  type ConversationEvent,
  type ReadConversationOptions,
} from '@sessiontape/sessions'
import { styleOf, type CliIo } from './cli-io.js'
import { displayBlock, displayLine } from './display-text.js'
import { shortTime } from './format-record.js'
import { CLI_MAX_LINE_BYTES } from './limits.js'
import { pageText } from './pager.js'
import type { Style } from './style.js'

/** Characters of a tool call's input, or a result's first line, kept on its one-line summary. */
const SUMMARY_CHARS = 100
/** Input fields that say what a tool call does, in the order one is looked for (path, command, pattern…). */
const TELLING_FIELDS = [
  'command',
  'cmd',
  'file_path',
  'path',
  'pattern',
  'query',
  'url',
  'description',
  'prompt',
]

/** `show`'s default: the session read whole into the conversation model, printed (paged on a terminal). */
export async function showConversation(
  filePath: string,
  format: ReadConversationOptions['format'],
  noPager: boolean,
  io: CliIo,
): Promise<void> {
  const conversation = await readConversation(filePath, {
    ...(format === undefined ? {} : { format }),
    signal: io.signal,
    maxLineBytes: CLI_MAX_LINE_BYTES,
  })
  await pageText(conversationText(conversation, styleOf(io)), noPager, io)
}

/**
 * A conversation as `show` prints it by default: each message's role, time and text, and each tool call
 * and result on one line (the tool's name and what it was given; the result's size and first line) — the
 * active branch only where the format has one. Every character from the transcript goes through
 * displayLine / displayBlock, so no escape sequence reaches the terminal or the pager.
 */
export function conversationText(conversation: Conversation, style: Style): string {
  const onBranch = new Set(conversation.activeBranch)
  const events = conversation.events.filter(
    (event) => onBranch.size === 0 || onBranch.has(event.id) || event.kind === 'title',
  )
  let text = ''
  if (conversation.title !== undefined) text += `${style.bold(displayLine(conversation.title))}\n`
  text += `${style.dim(`${displayLine(conversation.file)} · ${conversation.agent}`)}\n`
  for (const event of events) text += eventText(event, style)
  if (conversation.problems.length > 0)
    text += `\n${style.dim(`${conversation.problems.length} problem(s) while reading: sessiontape verify lists them`)}\n`
  return text
}

function eventText(event: ConversationEvent, style: Style): string {
  const time = event.timestamp === undefined ? '' : ` · ${shortTime(event.timestamp)}`
  const side = event.sidechain === undefined ? '' : ' · subagent'
  const head = (role: string) => `\n${style.bold(role)}${style.dim(`${time}${side}`)}\n`
  switch (event.kind) {
    case 'user':
    case 'assistant':
      return `${head(event.kind)}${displayBlock(event.text.trimEnd())}\n`
    case 'thinking':
      return `${head('thinking')}${style.dim(displayBlock(event.text.trimEnd()))}\n`
    case 'tool-call':
      return `  ${style.dim('→')} ${displayLine(event.name)}${inputSummary(event.input)}\n`
    case 'tool-result': {
      const first = event.output.split('\n').find((line) => line.trim() !== '') ?? ''
      const mark = event.isError ? 'error, ' : ''
      return `  ${style.dim('←')} ${mark}${event.output.length} char(s)${first === '' ? '' : `: ${clip(first)}`}\n`
    }
    case 'compaction':
      return `\n${style.dim(`— compacted${time} —`)}\n`
    default:
      return ''
  }
}

/** What a call was given, in one line: its telling field when it has one, else its JSON, cut short. */
function inputSummary(input: unknown): string {
  if (input === undefined || input === null) return ''
  if (typeof input === 'object' && !Array.isArray(input)) {
    const fields = input as Record<string, unknown>
    const telling = TELLING_FIELDS.find((key) => typeof fields[key] === 'string')
    if (telling !== undefined) {
      // The rest follows as compact JSON, so a short field beside the telling one is not lost.
      const rest = Object.fromEntries(Object.entries(fields).filter(([key]) => key !== telling))
      const more = Object.keys(rest).length === 0 ? '' : ` ${JSON.stringify(rest)}`
      return ` ${clip(`${fields[telling] as string}${more}`)}`
    }
  }
  return ` ${clip(typeof input === 'string' ? input : JSON.stringify(input))}`
}

function clip(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim()
  return displayLine(one.length > SUMMARY_CHARS ? `${one.slice(0, SUMMARY_CHARS)}…` : one)
}
