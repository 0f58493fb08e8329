import type { ConversationEvent } from '../model.js'

/**
 * The roles a hit can have (`--role`): the model's kinds that carry text a person would search for.
 * `tool` is accepted by the filter as both tool kinds.
 */
export const SEARCH_ROLES = [
  'user',
  'assistant',
  'thinking',
  'tool-call',
  'tool-result',
  'title',
  'compaction',
  'marker',
] as const

export type SearchRole = (typeof SEARCH_ROLES)[number]

/** The text of an event that search looks at (the same for the index and for matching), or undefined. */
export function searchableText(event: ConversationEvent): string | undefined {
  switch (event.kind) {
    case 'user':
    case 'assistant':
    case 'thinking':
    case 'marker':
      return event.text
    case 'tool-call': {
      // All of it: a line is at most 16 MiB (read-events.ts), and a cut here would hide a match past it.
      const input = typeof event.input === 'string' ? event.input : safeJson(event.input)
      return `${event.name} ${input}`
    }
    case 'tool-result':
      return event.output
    case 'title':
      return event.title
    case 'compaction':
      return event.summary
    default:
      return undefined
  }
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? ''
  } catch {
    // A cycle cannot come from JSON.parse; anything else unprintable is simply not searchable.
    return ''
  }
}
