import type { Usage } from '../model.js'
import { count, growthOf, hasTokens, usageOf } from './usage.js'

/** A usage event's fields, before the reader places it. */
export interface CopilotUsageDraft {
  readonly kind: 'usage'
  readonly model: string
  readonly usage: Usage
  readonly requests: number
}

interface ModelFigures {
  readonly usage: Usage
  readonly requests: number
}

/**
 * GitHub Copilot CLI's usage, one `events.jsonl` at a time. Copilot records the model server's counts only
 * as its own running total: `session.shutdown`'s `modelMetrics` — per model, `requests.count` and `usage`
 * {`inputTokens` (cached input included), `outputTokens`, `cacheReadTokens`, `cacheWriteTokens`} — counted
 * from the session's start, so a resumed session's next shutdown holds the earlier run's too. Each
 * shutdown yields, per model, the growth over the previous shutdown's figures (as ccusage reads them); a
 * figure that went down means the counts started again, and the shutdown's figures count whole. The
 * requests are dated at the shutdown: Copilot writes no per-request counts ccusage or we read.
 */
export class CopilotUsage {
  /** The last shutdown's figures per model. */
  readonly #previous = new Map<string, ModelFigures>()

  /** The usage drafts of a `session.shutdown` event's `data` (none for any other event). */
  drafts(type: string, data: Readonly<Record<string, unknown>>): CopilotUsageDraft[] {
    if (type !== 'session.shutdown') return []
    const metrics = objectOf(data.modelMetrics)
    if (metrics === undefined) return []
    const drafts: CopilotUsageDraft[] = []
    for (const [model, value] of Object.entries(metrics)) {
      const metric = objectOf(value)
      const usage = objectOf(metric?.usage)
      if (model === '' || usage === undefined) continue
      const requests = objectOf(metric?.requests)
      const cacheRead = count(usage.cacheReadTokens)
      const cacheWrite = count(usage.cacheWriteTokens)
      const now: ModelFigures = {
        usage: usageOf({
          inputTokens: Math.max(count(usage.inputTokens), cacheRead + cacheWrite),
          cacheReadInputTokens: cacheRead,
          cacheCreationInputTokens: cacheWrite,
          outputTokens: count(usage.outputTokens),
          reasoningOutputTokens: count(usage.reasoningTokens),
        }),
        requests: count(requests?.count ?? metric?.requests),
      }
      const before = this.#previous.get(model)
      this.#previous.set(model, now)
      const restarted = before !== undefined && wentDown(now, before)
      const grown =
        before === undefined || restarted
          ? now
          : {
              usage: growthOf(now.usage, before.usage),
              requests: Math.max(now.requests - before.requests, 0),
            }
      if (!hasTokens(grown.usage)) continue
      drafts.push({ kind: 'usage', model, usage: grown.usage, requests: Math.max(grown.requests, 1) })
    }
    return drafts
  }
}

function wentDown(now: ModelFigures, before: ModelFigures): boolean {
  const a = now.usage
  const b = before.usage
  return (
    a.inputTokens < b.inputTokens ||
    a.outputTokens < b.outputTokens ||
    a.cacheReadInputTokens < b.cacheReadInputTokens ||
    a.cacheCreationInputTokens < b.cacheCreationInputTokens ||
    now.requests < before.requests
  )
}

function objectOf(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined
}
