import { styleOf, type CliIo } from '../cli-io.js'
import { displayLine } from '../display-text.js'

/** The token columns, in the order they are printed (JSON keys are the field names). */
const COLUMNS = [
  ['input', 'inputTokens'],
  ['cache read', 'cacheReadInputTokens'],
  ['cache write', 'cacheCreationInputTokens'],
  ['output', 'outputTokens'],
  ['reasoning', 'reasoningOutputTokens'],
  ['total', 'totalTokens'],
] as const

/** What a row shows: the token counts and the cost. */
export type UsageCounts = { readonly [K in (typeof COLUMNS)[number][1]]: number } & {
  readonly costUSD: number | null
  readonly unpricedRequests: number
}

/**
 * A cost as a person reads it: `$0.1234` (4 decimals below $1, 2 above), `unknown` when no request of it was
 * priced, `$0.12 + unknown` when some were not.
 */
export function costText(counts: UsageCounts): string {
  if (counts.costUSD === null) return 'unknown'
  const usd = counts.costUSD
  const text = `$${usd.toFixed(usd < 1 ? 4 : 2)}`
  return counts.unpricedRequests > 0 ? `${text} + unknown` : text
}

/** The usage table: a head, one row per group (with its models dimmed below), the totals in bold. */
export function usageTable(
  io: CliIo,
  by: string,
  rows: readonly { label: string; counts: UsageCounts; models: readonly string[] }[],
  totals: UsageCounts,
): string {
  const style = styleOf(io)
  const number = (n: number) => n.toLocaleString('en-US')
  const head = [by, ...COLUMNS.map(([title]) => title), 'cost']
  const cells = (label: string, counts: UsageCounts) => [
    label,
    ...COLUMNS.map(([, key]) => number(counts[key])),
    costText(counts),
  ]
  const body = rows.map((row) => cells(displayLine(row.label), row.counts))
  const foot = cells('total', totals)
  const widths = head.map((title, i) =>
    Math.max(title.length, ...[...body, foot].map((row) => row[i]!.length)),
  )
  const line = (row: readonly string[]) =>
    row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ')
  const out = [style.dim(line(head))]
  rows.forEach((row, i) => {
    out.push(line(body[i]!))
    if (row.models.length > 0) out.push(style.dim(`  ${row.models.map(displayLine).join(', ')}`))
  })
  out.push(style.bold(line(foot)))
  return `${out.join('\n')}\n`
}
