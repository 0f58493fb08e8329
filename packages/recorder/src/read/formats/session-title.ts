import { TITLE_RECORD_TYPE } from '../../format/record-format.js'

/**
 * How much a title source is trusted: a title someone set beats one an agent generated, which beats a
 * conversation summary. Among equals the latest wins.
 */
export type TitleRank = 0 | 1 | 2 | 3

/**
 * The session title a record or metadata line carries, with its rank, or undefined. Understands every
 * format's way of naming a session: our `title` record, Claude Code's `custom-title` / `ai-title` /
 * `summary`, Qwen Code's `system` record of subtype `custom_title`, Gemini CLI's `$set.summary` and the
 * `summary` field of its session header.
 */
export function titleOf(
  value: Readonly<Record<string, unknown>>,
): { title: string; rank: TitleRank } | undefined {
  const type = value.type
  const text = (field: unknown): string | undefined =>
    typeof field === 'string' && field.trim().length > 0 ? field : undefined
  let title: string | undefined
  if (type === TITLE_RECORD_TYPE && (title = text(value.title)) !== undefined) return { title, rank: 3 }
  if (type === 'custom-title' && (title = text(value.customTitle) ?? text(value.title)) !== undefined)
    return { title, rank: 3 }
  if (type === 'system' && value.subtype === 'custom_title') {
    const payload = value.systemPayload as Record<string, unknown> | null | undefined
    title = typeof payload === 'object' && payload !== null ? text(payload.customTitle) : undefined
    if (title !== undefined) return { title, rank: payload?.titleSource === 'auto' ? 2 : 3 }
  }
  if (type === 'ai-title' && (title = text(value.aiTitle) ?? text(value.title)) !== undefined)
    return { title, rank: 2 }
  if (type === 'summary' && (title = text(value.summary)) !== undefined) return { title, rank: 1 }
  const set = value.$set as Record<string, unknown> | null | undefined
  if (typeof set === 'object' && set !== null && (title = text(set.summary)) !== undefined)
    return { title, rank: 1 }
  if (typeof value.projectHash === 'string' && (title = text(value.summary)) !== undefined)
    return { title, rank: 1 }
  return undefined
}

/** Keeps the best title seen so far (higher rank wins; the later of equals). */
export class TitleKeeper {
  #title: string | undefined
  #rank = -1

  see(value: Readonly<Record<string, unknown>>): void {
    const found = titleOf(value)
    if (found !== undefined && found.rank >= this.#rank) {
      this.#title = found.title
      this.#rank = found.rank
    }
  }

  get title(): string | undefined {
    return this.#title
  }
}
