/** Markdown: one section per turn, tool calls and results in fenced blocks, usage per turn and in total. */
import type { Usage } from '../model.js'
import type { RedactionReport } from '../redact/redactor.js'
import type { ShownImage } from './images.js'
import type { SessionFacts, Turn, TurnItem } from './turns.js'
import { fenced, markdownProse, showControls } from './text-safety.js'

// Made on first use, not at import: creating the first Intl formatter loads ICU's data (~50–200 ms), which
// every command importing the package (`search`, `list`) paid before.
let numberFormat: Intl.NumberFormat | undefined
const NUMBER = { format: (n: number) => (numberFormat ??= new Intl.NumberFormat('en-US')).format(n) }

export function formatUsage(usage: Usage): string {
  const parts = [`${NUMBER.format(usage.inputTokens)} in`]
  if (usage.cacheReadInputTokens > 0) parts[0] += ` (${NUMBER.format(usage.cacheReadInputTokens)} cached)`
  parts.push(`${NUMBER.format(usage.outputTokens)} out`)
  if (usage.reasoningOutputTokens > 0)
    parts[1] += ` (${NUMBER.format(usage.reasoningOutputTokens)} reasoning)`
  parts.push(`${NUMBER.format(usage.totalTokens)} total`)
  return parts.join(' · ')
}

/** A time as written, shortened to `YYYY-MM-DD HH:MM:SS` (UTC) when it is ISO 8601. */
export function formatTime(ts: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})/.exec(ts)
  return match === null ? ts : `${match[1]} ${match[2]}${ts.endsWith('Z') ? ' UTC' : ''}`
}

function label(text: string, item: TurnItem): string {
  return item.off === true ? `${text} _(side branch)_` : text
}

/** An image in Markdown: named, never embedded (a renderer would fetch or show it from the document). */
function imageLine(image: ShownImage): string {
  const what = `${image.media === '' ? 'image' : image.media}${image.bytes > 0 ? `, ${NUMBER.format(image.bytes)} bytes` : ''}`
  return `_Image (${markdownProse(what)})${image.omitted === undefined ? '' : `: not shown, ${markdownProse(image.omitted)}`}_`
}

function renderItem(item: TurnItem): string {
  switch (item.t) {
    case 'text': {
      const who = item.role === 'user' ? 'User' : 'Assistant'
      const model = item.model === undefined ? '' : ` (${markdownProse(item.model)})`
      return `**${label(who, item)}**${model}\n\n${markdownProse(item.text)}\n`
    }
    case 'thinking':
      return `**${label('Thinking', item)}**\n\n${fenced(item.text, 'text')}`
    case 'tool': {
      let out = `**${label('Tool call', item)}: ${markdownProse(item.name)}**\n\n`
      if (item.input !== '{}') out += fenced(item.input, /^[{[]/.test(item.input) ? 'json' : 'text')
      if (item.diff !== undefined) out += `${item.input !== '{}' ? '\n' : ''}${fenced(item.diff, 'diff')}`
      if (item.output !== undefined) {
        out += `\n**${item.isError === true ? 'Result (error)' : 'Result'}**\n\n${fenced(item.output, 'text')}`
      }
      for (const image of item.images ?? []) out += `\n${imageLine(image)}\n`
      if (item.items !== undefined && item.items.length > 0) {
        const agent = item.agent === undefined ? '' : ` ${markdownProse(item.agent)}`
        const body = `**Subagent${agent}**\n\n${item.items.map(renderItem).join('\n')}`
        out += `\n${body.replace(/\n$/, '').replace(/^/gm, '> ')}\n`
      }
      return out
    }
    case 'image':
      return `**${label(item.role === 'user' ? 'User' : 'Assistant', item)}**\n\n${imageLine(item.image)}\n`
    case 'command': {
      const typed = [item.name, item.args].filter((part) => part !== undefined).join(' ')
      let out = `**${label(typed === '' ? 'Command output' : 'Command', item)}**${typed === '' ? '' : `: ${markdownProse(typed)}`}\n`
      if (item.out !== undefined && item.out !== '')
        out += `\n${fenced(item.out, item.isError === true ? 'text stderr' : 'text')}`
      return out
    }
    case 'result':
      return `**${label(item.isError ? 'Tool result (error)' : 'Tool result', item)}** for call \`${showControls(item.callId).replace(/`/g, "'")}\`\n\n${fenced(item.output, 'text')}${(item.images ?? []).map((image) => `\n${imageLine(image)}\n`).join('')}`
    case 'marker':
      return `> **${label(item.marker === 'recovered' ? 'Recovered' : item.marker === 'resumed' ? 'Resumed' : item.marker === 'error' ? 'Error' : 'Notice', item)}**: ${markdownProse(item.text).replace(/\n/g, '\n> ')}\n`
    case 'compaction':
      return `> **${label('Context compacted', item)}**${item.summary === undefined ? '' : `\n>\n> ${markdownProse(item.summary).replace(/\n/g, '\n> ')}`}\n`
    case 'title':
      return `_${label('Title', item)}: ${markdownProse(item.title)}_\n`
  }
}

/** Consecutive items of one subagent, rendered as a quoted block under a heading. */
function renderItems(items: readonly TurnItem[]): string {
  const parts: string[] = []
  for (let i = 0; i < items.length;) {
    const item = items[i]!
    if (item.sub === undefined) {
      parts.push(renderItem(item))
      i++
      continue
    }
    const agent = item.sub
    const group: string[] = []
    while (i < items.length && items[i]!.sub === agent) group.push(renderItem(items[i++]!))
    const body = `**Subagent${agent === '' ? '' : ` ${markdownProse(agent)}`}**\n\n${group.join('\n')}`
    parts.push(body.replace(/\n$/, '').replace(/^/gm, '> ') + '\n')
  }
  return parts.join('\n')
}

/** What a Markdown header named: the footer names what was learnt only after it was written. */
export interface HeaderShown {
  readonly title: string | undefined
  readonly sessionId: string | undefined
}

export function headerShown(facts: SessionFacts): HeaderShown {
  return { title: facts.title, sessionId: facts.sessionId }
}

export function markdownHeader(facts: SessionFacts): string {
  const title = facts.title ?? (facts.sessionId === undefined ? 'Session' : `Session ${facts.sessionId}`)
  const rows: string[] = []
  const row = (name: string, value: string | undefined): void => {
    if (value !== undefined) rows.push(`- ${name}: ${markdownProse(value)}`)
  }
  row(
    'Agent',
    facts.agent === undefined
      ? undefined
      : `${facts.agent}${facts.agentVersion === undefined ? '' : ` ${facts.agentVersion}`}`,
  )
  row('Session', facts.sessionId)
  row('Model', facts.model)
  row('Directory', facts.cwd)
  row('Git branch', facts.gitBranch)
  row('Continues', facts.parentSessionId)
  row('Started', facts.started === undefined ? undefined : formatTime(facts.started))
  return `# ${markdownProse(title).replace(/\n/g, ' ')}\n\n${rows.join('\n')}${rows.length > 0 ? '\n\n' : ''}`
}

export function markdownTurn(turn: Turn): string {
  const when = turn.ts === undefined ? '' : ` · ${formatTime(turn.ts)}`
  const off = turn.off === true ? ' (side branch)' : ''
  const heading = `## Turn ${turn.n}${turn.role === 'system' ? ' · before the first message' : ''}${when}${off}\n\n`
  const usage = turn.usage === undefined ? '' : `\n_Usage: ${formatUsage(turn.usage)}_\n`
  return `${heading}${renderItems(turn.items)}${usage}\n`
}

export function markdownFooter(
  facts: SessionFacts,
  total: Usage,
  turns: number,
  shown: HeaderShown,
  redaction?: RedactionReport,
): string {
  let out = `## Totals\n\n- Turns: ${NUMBER.format(turns)}\n- Tokens: ${formatUsage(total)}\n`
  // The header is written with the first turn (the export streams); a title set later, or a session id
  // first seen after it, is named here rather than lost.
  if (facts.title !== undefined && facts.title !== shown.title)
    out += `- Title: ${markdownProse(facts.title).replace(/\n/g, ' ')}\n`
  if (facts.sessionId !== undefined && shown.sessionId === undefined)
    out += `- Session: ${markdownProse(facts.sessionId)}\n`
  if (total.cacheCreationInputTokens > 0)
    out += `- Cache writes: ${NUMBER.format(total.cacheCreationInputTokens)}\n`
  if (facts.ended !== undefined) out += `- Last activity: ${formatTime(facts.ended)}\n`
  if (redaction !== undefined) {
    const kinds = Object.entries(redaction.byKind).map(([kind, count]) => `${kind} ${count}`)
    out += `- Redacted: ${redaction.total} secret${redaction.total === 1 ? '' : 's'}${kinds.length > 0 ? ` (${kinds.join(', ')})` : ''}\n`
  }
  return out
}
