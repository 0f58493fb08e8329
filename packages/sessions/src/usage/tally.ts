import type { Usage } from '../model.js'
import { addUsage, hasTokens, ZERO_USAGE } from './usage.js'

/** Usage with the models it came from, how many model requests it adds up, and what they cost. */
export interface UsageTotals extends Usage {
  /** The models named, sorted (`<synthetic>`, Claude's stand-in for a local error, left out). */
  readonly models: readonly string[]
  /** Model requests counted. */
  readonly requests: number
  /**
   * What the priced requests cost in US dollars (see `prices`), or `null` when none with tokens was
   * priced: a model the price table does not know costs "unknown", never 0. A request without tokens
   * costs 0 whatever its model.
   */
  readonly costUSD: number | null
  /** Requests with tokens whose model has no price: their cost is not in `costUSD`. */
  readonly unpricedRequests: number
  /** The models of those requests, sorted. */
  readonly unpricedModels: readonly string[]
}

const SYNTHETIC_MODEL = '<synthetic>'
const UNKNOWN_MODEL = 'unknown'

/** Adds requests up: tokens, models, cost. One per session, day, model, agent and the total. */
export class Tally {
  #usage: Usage = ZERO_USAGE
  readonly #models = new Set<string>()
  readonly #unpricedModels = new Set<string>()
  #cost = 0
  #priced = 0
  #unpriced = 0
  requests = 0

  /** One request (or `requests` whose figures the agent recorded only as their sum). */
  add(usage: Usage, model: string | undefined, cost: number | undefined, requests = 1): void {
    this.#usage = addUsage(this.#usage, usage)
    this.requests += requests
    if (model !== undefined && model !== SYNTHETIC_MODEL) this.#models.add(model)
    if (!hasTokens(usage)) return
    if (cost === undefined) {
      this.#unpriced += requests
      this.#unpricedModels.add(model ?? UNKNOWN_MODEL)
    } else {
      this.#cost += cost
      this.#priced += requests
    }
  }

  /** Adds another tally's figures (a subagent's file into its parent session's). */
  merge(other: Tally): void {
    this.#usage = addUsage(this.#usage, other.#usage)
    this.requests += other.requests
    for (const model of other.#models) this.#models.add(model)
    for (const model of other.#unpricedModels) this.#unpricedModels.add(model)
    this.#cost += other.#cost
    this.#priced += other.#priced
    this.#unpriced += other.#unpriced
  }

  totals(): UsageTotals {
    return {
      ...this.#usage,
      models: [...this.#models].sort(),
      requests: this.requests,
      costUSD: this.#priced === 0 && this.#unpriced > 0 ? null : this.#cost,
      unpricedRequests: this.#unpriced,
      unpricedModels: [...this.#unpricedModels].sort(),
    }
  }
}
