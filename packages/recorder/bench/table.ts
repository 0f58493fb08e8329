import type { Workload } from './workloads.js'
import type { Variant } from './writers.js'

export interface Result {
  readonly variant: Variant
  readonly workload: Workload
  readonly records: number
  readonly elapsedMs: number
  readonly recordsPerSec: number
  readonly eldMaxMs: number
  readonly eldP99Ms: number
  readonly syncCalls: number
  readonly writesPer1000: number
  readonly peakRssMb: number
  /** RSS just before the measured phase (payloads built, writer open). */
  readonly rssBeforeMb: number
  readonly callUsMean: number
  readonly callUsP50: number
  readonly callUsP99: number
  readonly callUsMax: number
}

const NUMERIC = [
  'elapsedMs',
  'recordsPerSec',
  'eldMaxMs',
  'eldP99Ms',
  'syncCalls',
  'writesPer1000',
  'peakRssMb',
  'rssBeforeMb',
  'callUsMean',
  'callUsP50',
  'callUsP99',
  'callUsMax',
] as const

/** Per-figure median over repetitions (each figure independently). */
export function median(results: readonly Result[]): Result {
  const first = results[0]!
  const out: Record<string, unknown> = { ...first }
  for (const key of NUMERIC) {
    const values = results.map((r) => r[key]).sort((a, b) => a - b)
    const mid = values.length >> 1
    out[key] = values.length % 2 === 1 ? values[mid]! : (values[mid - 1]! + values[mid]!) / 2
  }
  return out as unknown as Result
}

function fmt(value: number, digits = 1): string {
  if (value >= 10_000) return `${(value / 1000).toFixed(1)}k`
  return value.toFixed(digits)
}

function ratio(a: number, b: number): string {
  return b === 0 ? '—' : `${(a / b).toFixed(2)}×`
}

export function formatTable(
  medians: ReadonlyMap<string, Result>,
  workloads: readonly Workload[],
  variants: readonly Variant[],
): string {
  const lines: string[] = []
  const header = [
    'workload',
    'variant',
    'records/s',
    'vs stringify',
    'loop max ms',
    'loop p99 ms',
    'sync fs calls',
    'writes/1k rec',
    'peak RSS MB',
    'RSS growth MB',
    'µs/call mean',
    'µs/call p50',
    'ms/call max',
  ]
  const rows: string[][] = []
  for (const workload of workloads) {
    const ceiling = medians.get(`${workload}/stringify-only`)
    for (const variant of variants) {
      const r = medians.get(`${workload}/${variant}`)
      if (r === undefined) continue
      rows.push([
        workload,
        variant,
        fmt(r.recordsPerSec, 0),
        ceiling ? ratio(r.recordsPerSec, ceiling.recordsPerSec) : '—',
        fmt(r.eldMaxMs),
        fmt(r.eldP99Ms),
        String(Math.round(r.syncCalls)),
        fmt(r.writesPer1000),
        fmt(r.peakRssMb, 0),
        fmt(r.peakRssMb - r.rssBeforeMb, 0),
        fmt(r.callUsMean, 2),
        fmt(r.callUsP50, 2),
        fmt(r.callUsMax / 1000, 2),
      ])
    }
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)))
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`
  lines.push(line(header))
  lines.push(
    `|${widths.map((w, i) => (i < 2 ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`,
  )
  for (const row of rows) lines.push(line(row))

  // The targets of the issue, as ratios measured in this same run.
  const get = (w: Workload, v: Variant) => medians.get(`${w}/${v}`)
  const targets: string[] = []
  const chatNever = get('chat', 'ours-never')
  const chatOurs = get('chat', 'ours')
  const chatStream = get('chat', 'createWriteStream')
  const chatSonic = get('chat', 'sonic-boom')
  const bigOurs = get('big', 'ours')
  const bigNever = get('big', 'ours-never')
  const bigStringify = get('big', 'stringify-only')
  const steadyOurs = get('steady', 'ours')
  const steadyStringify = get('steady', 'stringify-only')
  if (chatNever && chatStream)
    targets.push(
      `chat, ours (fsync 'never') vs createWriteStream: ${ratio(chatNever.recordsPerSec, chatStream.recordsPerSec)} records/s (target ≥ 1.0×)`,
    )
  if (chatOurs && chatSonic)
    targets.push(
      `chat, ours (default 'flush') vs sonic-boom: ${ratio(chatOurs.recordsPerSec, chatSonic.recordsPerSec)} records/s (target ≥ 1.5×)`,
    )
  if (chatOurs && chatNever)
    targets.push(
      `chat, ours write calls per 1,000 records: ${fmt(chatOurs.writesPer1000)} / ${fmt(chatNever.writesPer1000)} (target ≤ 10)`,
    )
  const ourSync = [...medians.values()]
    .filter((r) => r.variant.startsWith('ours') && !r.variant.startsWith('ours-base'))
    .map((r) => r.syncCalls)
  targets.push(`ours, sync fs calls in the hot phase, all workloads: max ${Math.max(...ourSync)} (target 0)`)
  if (bigOurs && bigStringify)
    targets.push(
      `big, loop max delay ours vs stringify-only: ${ratio(bigOurs.eldMaxMs, bigStringify.eldMaxMs)}${bigNever ? ` (fsync 'never': ${ratio(bigNever.eldMaxMs, bigStringify.eldMaxMs)})` : ''} (target ≤ 1.2×)`,
    )
  if (steadyOurs && steadyStringify)
    targets.push(
      `steady, time inside record() vs stringify-only's call: mean ${ratio(steadyOurs.callUsMean, steadyStringify.callUsMean)}, ` +
        `median ${ratio(steadyOurs.callUsP50, steadyStringify.callUsP50)} (target ≤ 1.3×)`,
    )
  // Longest loop stall and longest record() call of ours, next to the baselines' in the same run.
  const ms = (r: Result) => `${fmt(r.eldMaxMs)} / ${fmt(r.callUsMax / 1000, 2)} ms`
  // Issue 26: `huge` with 0 sync calls; its string-heavy records (`huge-strings`) ≤ 0.1× JSON.stringify.
  for (const workload of ['huge', 'huge-strings'] as const) {
    const stringify = get(workload, 'stringify-only')
    for (const variant of ['ours', 'ours-handover'] as const) {
      const ours = get(workload, variant)
      if (ours && stringify)
        targets.push(
          `${workload}, ${variant}: loop max ${ratio(ours.eldMaxMs, stringify.eldMaxMs)} of stringify-only's, ${ours.syncCalls} sync fs calls (target ${workload === 'huge' ? '0 sync calls' : '≤ 0.1×, 0 sync calls'})`,
        )
    }
  }
  const bigHandover = get('big', 'ours-handover')
  if (bigHandover && bigStringify)
    targets.push(
      `big, ours-handover: loop max ${ratio(bigHandover.eldMaxMs, bigStringify.eldMaxMs)} of stringify-only's, ${bigHandover.syncCalls} sync fs calls`,
    )
  for (const workload of ['huge-paced', 'fields'] as const) {
    const baselines = (['stringify-only', 'worker-offload'] as const)
      .map((variant) => get(workload, variant))
      .filter((r) => r !== undefined)
      .map((r) => `; ${r.variant} ${ms(r)}`)
      .join('')
    for (const variant of ['ours', 'ours-handover', 'ours-queue-256m'] as const) {
      const ours = get(workload, variant)
      if (ours)
        targets.push(
          `${workload}, ${variant}: longest loop stall / longest record() ${ms(ours)} (target ≤ 5 ms each${baselines})`,
        )
    }
  }
  // Against an earlier build (WRITE_BENCH_BASE): the longest loop stall, no worse (issue 20).
  for (const workload of workloads) {
    for (const [variant, base] of [
      ['ours', 'ours-base'],
      ['ours-handover', 'ours-base-handover'],
    ] as const) {
      const ours = get(workload, variant)
      const before = get(workload, base)
      if (ours && before)
        targets.push(
          `${workload}, ${variant} vs ${base}: loop max ${fmt(ours.eldMaxMs)} / ${fmt(before.eldMaxMs)} ms = ${ratio(ours.eldMaxMs, before.eldMaxMs)}, ` +
            `records/s ${ratio(ours.recordsPerSec, before.recordsPerSec)}, record() p50 ${ratio(ours.callUsP50, before.callUsP50)} (target: loop max no worse)`,
        )
    }
  }
  lines.push('', 'Targets (ratios within this run):', ...targets.map((t) => `  - ${t}`))
  return lines.join('\n')
}
