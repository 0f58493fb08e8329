import type { Usage } from '../model.js'
import { invalid } from '../options.js'

/** What one token of each kind costs a model's user, in US dollars. */
export interface ModelPrice {
  /** An input token neither read from nor written to a prompt cache. */
  readonly input: number
  /** An output token (reasoning included: providers bill it as output). */
  readonly output: number
  /** An input token read from a prompt cache. @default `input` */
  readonly cacheRead?: number
  /** An input token written to a prompt cache (Anthropic's 5-minute cache write). @default `input` */
  readonly cacheWrite?: number
  /**
   * The prices of a request whose input (cached included) is over `aboveInputTokens`: Anthropic bills every
   * token of such a request at its long-context prices (Sonnet 4 and 4.5 with the 1M-token window).
   */
  readonly longContext?: {
    readonly aboveInputTokens: number
    readonly input: number
    readonly output: number
    readonly cacheRead?: number
    readonly cacheWrite?: number
  }
}

/** A dated price table: where its figures come from and when they were read there. */
export interface PriceTable {
  /** Where the prices were read (a URL or a document's name). */
  readonly source: string
  /** The day the prices were read, `YYYY-MM-DD`. */
  readonly date: string
  /** Model → price per token. Model names as the provider's API names them, without a date suffix. */
  readonly models: Readonly<Record<string, ModelPrice>>
}

/** US dollars per million tokens → per token, exact for the table's figures (which have ≤ 3 decimals). */
const M = (perMillion: number) => perMillion / 1_000_000
const anthropic = (input: number, output: number): ModelPrice => ({
  input: M(input),
  output: M(output),
  // Anthropic prices a 5-minute cache write at 1.25× the input and a cache read at 0.1× it.
  cacheWrite: M(input * 1.25),
  cacheRead: M(input / 10),
})
/** Sonnet's long-context prices over 200K input tokens: twice the input, 1.5× the output. */
const sonnet = (): ModelPrice => ({
  ...anthropic(3, 15),
  longContext: { aboveInputTokens: 200_000, ...anthropic(6, 22.5) },
})
const openai = (input: number, cachedInput: number, output: number): ModelPrice => ({
  input: M(input),
  output: M(output),
  cacheRead: M(cachedInput),
})

/**
 * The built-in prices: Anthropic's and OpenAI's published list prices for their standard tier (no batch
 * discount, no long-context surcharge; pages named in `source`). No network is used to get them: `date` is
 * the day they were checked against the LiteLLM snapshot that ccusage 20.0.24 embeds, by running it on a
 * session of every model in this table (the same cost, docs/usage.md says how).
 * A model not in the table has no price: its cost is unknown, never 0. `summarizeUsage({ prices })` and
 * `sessiontape usage --prices <file>` add to or replace entries.
 */
export const BUILT_IN_PRICES: PriceTable = Object.freeze({
  source:
    'Anthropic and OpenAI list prices (https://www.anthropic.com/pricing#api, https://platform.openai.com/docs/pricing), as in ccusage 20.0.24',
  date: '2026-11-28',
  models: Object.freeze({
    'claude-opus-4-5': anthropic(5, 25),
    'claude-opus-4-1': anthropic(15, 75),
    'claude-opus-4': anthropic(15, 75),
    'claude-sonnet-4-5': sonnet(),
    'claude-sonnet-4': sonnet(),
    'claude-3-7-sonnet': anthropic(3, 15),
    'claude-haiku-4-5': anthropic(1, 5),
    'claude-3-5-haiku': anthropic(0.8, 4),
    'gpt-5': openai(1.25, 0.125, 10),
    'gpt-5-codex': openai(1.25, 0.125, 10),
    'gpt-5.1': openai(1.25, 0.125, 10),
    'gpt-5.1-codex': openai(1.25, 0.125, 10),
    'gpt-5-mini': openai(0.25, 0.025, 2),
    'gpt-5-nano': openai(0.05, 0.005, 0.4),
  }),
})

/** Prices by model, the user's table over the built-in one. */
export class Prices {
  readonly #models: ReadonlyMap<string, ModelPrice>
  /** The tables used, built-in first: each one's source and date (shown beside any cost). */
  readonly tables: readonly { readonly source: string; readonly date: string }[]

  constructor(override?: PriceTable) {
    const models = new Map<string, ModelPrice>()
    const tables = [BUILT_IN_PRICES, ...(override === undefined ? [] : [override])]
    for (const table of tables)
      for (const [model, price] of Object.entries(table.models)) models.set(normalized(model), price)
    this.#models = models
    this.tables = tables.map(({ source, date }) => ({ source, date }))
  }

  /** What a request of `model` with this usage cost in US dollars, or undefined when the model is unpriced. */
  costOf(model: string | undefined, usage: Usage): number | undefined {
    if (model === undefined) return undefined
    const listed = this.#models.get(normalized(model))
    if (listed === undefined) return undefined
    const long = listed.longContext
    const price = long !== undefined && usage.inputTokens > long.aboveInputTokens ? long : listed
    const cacheRead = usage.cacheReadInputTokens
    const cacheWrite = usage.cacheCreationInputTokens
    const plainInput = Math.max(usage.inputTokens - cacheRead - cacheWrite, 0)
    return (
      plainInput * price.input +
      cacheRead * (price.cacheRead ?? price.input) +
      cacheWrite * (price.cacheWrite ?? price.input) +
      usage.outputTokens * price.output
    )
  }
}

/**
 * A model's name as the table keys it: lower case, without a provider prefix (`anthropic/…`, Bedrock's
 * `anthropic.…`, a Vertex `…@20250929` or API `…-20250929` date, a Bedrock `-v1:0` version).
 */
export function normalized(model: string): string {
  let name = model.trim().toLowerCase()
  name = name.slice(name.lastIndexOf('/') + 1)
  name = name.replace(/^(?:[a-z]{2}\.)?anthropic\./, '')
  name = name.replace(/-v\d+(?::\d+)?$/, '')
  name = name.replace(/[-@]\d{8}$/, '')
  return name
}

/**
 * A price table read from JSON (a user's file): `{ source, date, models: { <model>: { input, output,
 * cacheRead?, cacheWrite? } } }`, prices in US dollars per token. Throws `SessionsArgumentError` naming
 * the first field that is wrong.
 */
export function checkPriceTable(value: unknown, name = 'prices'): PriceTable {
  const table = plain(value)
  if (table === undefined) throw invalid(name, value, 'a price table object ({ source, date, models })')
  if (typeof table.source !== 'string' || table.source.trim() === '')
    throw invalid(`${name}.source`, table.source, 'a non-empty string naming where the prices come from')
  if (typeof table.date !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(table.date))
    throw invalid(`${name}.date`, table.date, 'the day the prices were read, as YYYY-MM-DD')
  const models = plain(table.models)
  if (models === undefined) throw invalid(`${name}.models`, table.models, 'an object of model → price')
  const checked: Record<string, ModelPrice> = {}
  for (const [model, given] of Object.entries(models)) {
    const price = plain(given)
    if (price === undefined)
      throw invalid(
        `${name}.models["${model}"]`,
        given,
        'an object { input, output, cacheRead?, cacheWrite? }',
      )
    const field = (key: 'input' | 'output' | 'cacheRead' | 'cacheWrite', optional: boolean) => {
      const v = price[key]
      if (v === undefined && optional) return undefined
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0)
        throw invalid(`${name}.models["${model}"].${key}`, v, 'a price per token in US dollars, ≥ 0')
      return v
    }
    const input = field('input', false)!
    const output = field('output', false)!
    const cacheRead = field('cacheRead', true)
    const cacheWrite = field('cacheWrite', true)
    checked[model] = {
      input,
      output,
      ...(cacheRead === undefined ? {} : { cacheRead }),
      ...(cacheWrite === undefined ? {} : { cacheWrite }),
    }
  }
  return { source: table.source, date: table.date, models: checked }
}

function plain(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined
}
