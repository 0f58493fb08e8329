import type { ScenarioCheck } from './check.js'
import type { Totals } from './expect.js'

/** The table printed per agent, and the lines under it (failures, exclusions), as plain text. */

function figure(t: Totals): string {
  return `${t.inputTokens}/${t.outputTokens} (${t.requests})`
}

function pad(cells: readonly string[], widths: readonly number[]): string {
  return cells
    .map((c, i) => c.padEnd(widths[i] ?? 0))
    .join('  ')
    .trimEnd()
}

export function agentTable(title: string, checks: readonly ScenarioCheck[]): string {
  const head = [
    'scenario',
    'sessions',
    'listed',
    'read',
    'unread',
    'expected in/out (req)',
    'ours in/out (req)',
    "agent's own in/out",
    'result',
  ]
  const rows = checks.map((c) => [
    c.label,
    String(c.files.length),
    String(c.listed),
    String(c.read),
    String(c.unreadLines),
    figure(c.expected),
    figure(c.ours),
    c.agentOwn === undefined ? '-' : `${c.agentOwn.inputTokens}/${c.agentOwn.outputTokens}`,
    c.failures.length === 0 ? 'pass' : 'FAIL',
  ])
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const lines = [title, pad(head, widths), ...rows.map((r) => pad(r, widths))]
  for (const c of checks) {
    for (const failure of c.failures) lines.push(`  ${c.label}: ${oneLine(failure)}`)
    for (const ex of c.excluded) lines.push(`  ${c.label}: request ${ex.seq} excluded: ${ex.reason}`)
    if (c.refused.length > 0) {
      const hosts = [...new Set(c.refused)].map(oneLine).join(', ')
      lines.push(`  ${c.label}: offline: ${c.refused.length} request(s) for other hosts refused (${hosts})`)
    }
  }
  return `${lines.join('\n')}\n`
}

/** Agent stderr can hold anything: one line, bounded, control characters (C0, DEL, C1) made visible. */
export function oneLine(text: string): string {
  let out = ''
  for (const char of text.slice(0, 400)) {
    const code = char.codePointAt(0) ?? 0
    const control = code < 0x20 || (code >= 0x7f && code <= 0x9f)
    out += !control ? char : char === '\n' ? ' ⏎ ' : `\\x${code.toString(16).padStart(2, '0')}`
  }
  return out
}
