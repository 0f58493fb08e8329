export interface Row {
  readonly scenario: string
  readonly ours: string
  readonly baseline: string
  readonly oursNs: number
  readonly baselineNs: number
  /** What the ratio must reach ("≥ 20×") or stay under ("≤ 1.2×"), if the issue sets a target. */
  readonly target?: { readonly kind: 'speedup' | 'overhead'; readonly value: number }
  readonly note?: string
  /** Show `ours - baseline` in ns instead of a ratio (for rows that isolate our own overhead). */
  readonly showDifference?: boolean
}

function ns(value: number): string {
  return value >= 10_000 ? `${(value / 1000).toFixed(1)} µs` : `${value.toFixed(0)} ns`
}

/** Prints ours next to the baseline measured in the same run, with the ratio and the verdict on a target. */
export function printTable(rows: readonly Row[]): void {
  const lines = rows.map((r) => {
    const speedup = r.baselineNs / r.oursNs
    const overhead = r.oursNs / r.baselineNs
    let ratio =
      r.target?.kind === 'overhead' ? `${overhead.toFixed(2)}× cost` : `${speedup.toFixed(1)}× faster`
    if (r.showDifference === true) ratio = `+${(r.oursNs - r.baselineNs).toFixed(0)} ns`
    let verdict = ''
    if (r.target?.kind === 'speedup')
      verdict = speedup >= r.target.value ? `ok (≥ ${r.target.value}×)` : `MISS (≥ ${r.target.value}×)`
    if (r.target?.kind === 'overhead')
      verdict = overhead <= r.target.value ? `ok (≤ ${r.target.value}×)` : `MISS (≤ ${r.target.value}×)`
    return [
      r.scenario,
      `${r.ours} ${ns(r.oursNs)}`,
      `${r.baseline} ${ns(r.baselineNs)}`,
      ratio,
      verdict,
      r.note ?? '',
    ]
  })
  const header = ['scenario', 'ours (median)', 'baseline (median)', 'ratio (or added ns)', 'target', 'note']
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] as string).length)))
  const fmt = (cells: string[]): string => cells.map((c, i) => c.padEnd(widths[i] as number)).join(' | ')
  console.log(fmt(header))
  console.log(widths.map((w) => '-'.repeat(w)).join('-|-'))
  for (const l of lines) console.log(fmt(l))
}
