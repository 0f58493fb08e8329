import type { SecretFinding } from './finding.js'
import { AnchorScan } from './anchor-scan.js'
import { RULE_SETS } from './rule-sets.js'
import { hasUnanchoredRule } from './secretlint-rules.js'

/** How many secrets of each kind were replaced. */
export interface RedactionReport {
  readonly total: number
  /** Counts by kind (`github-token`, `aws-secret-key`, `jwt`…), kinds with none left out. */
  readonly byKind: Readonly<Record<string, number>>
}

/**
 * Texts shorter than this hold no secret any rule knows: the shortest finding, a 4-character password, needs
 * its name and a separator (`pwd=abcd`, 8 characters).
 */
const MIN_SCANNED_LENGTH = 8

/**
 * Terminal escapes (SGR colours, OSC titles and links), raw or JSON-escaped (`\u001b[31m`): blanked before
 * the rules run, so `grep --color` output still shows a token as a word of its own (`…[31mghp_…` would put a
 * letter before it). Blanked with as many spaces: a finding's range is the same in the text as written.
 */
const TERMINAL_ESCAPE =
  // eslint-disable-next-line no-control-regex -- terminal escapes are control characters
  /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]{0,2048}(?:\u0007|\u001b\\)|\\u001[bB]\[[0-9;]*[A-Za-z]/g

/** Built on first use: nothing happens at import time. */
let anchors: AnchorScan | undefined

/** Every secret in `text`, overlapping findings merged (the earliest-starting one names the kind), in order. */
export function findSecrets(text: string): SecretFinding[] {
  if (text.length < MIN_SCANNED_LENGTH) return []
  const scanned =
    text.includes('\u001b') || text.includes('\\u001')
      ? text.replace(TERMINAL_ESCAPE, (escape) => ' '.repeat(escape.length))
      : text
  anchors ??= new AnchorScan(RULE_SETS.flatMap((rules) => rules.anchors))
  const hits = anchors.scan(scanned)
  // No anchor, no finding (most texts): unless a rule without anchors (one a newer preset adds) must run.
  if (hits.size === 0 && !hasUnanchoredRule()) return []
  return mergeFindings(RULE_SETS.flatMap((rules) => rules.scan(scanned, hits)))
}

/** Findings in order, overlapping ones merged (the earliest-starting one names the kind). @internal */
export function mergeFindings(findings: readonly SecretFinding[]): SecretFinding[] {
  const found = findings.filter((f) => f.end > f.start).sort((a, b) => a.start - b.start || b.end - a.end)
  const merged: SecretFinding[] = []
  for (const finding of found) {
    const last = merged.at(-1)
    if (last !== undefined && finding.start < last.end) {
      if (finding.end > last.end) merged[merged.length - 1] = { ...last, end: finding.end }
      continue
    }
    merged.push(finding)
  }
  return merged
}

/** The placeholder a secret of `kind` is replaced by. */
export function placeholder(kind: string): string {
  return `[REDACTED:${kind}]`
}

/**
 * Replaces secrets in texts and values and counts them. One redactor per export (or per recorder): its
 * report adds up everything it replaced.
 */
export class Redactor {
  /** Counts by kind, added up over every call. */
  readonly #counts = new Map<string, number>()

  /** `text` with every secret replaced by `[REDACTED:<kind>]`. */
  redactText(text: string): string {
    const findings = findSecrets(text)
    if (findings.length === 0) return text
    let out = ''
    let at = 0
    for (const { start, end, kind } of findings) {
      out += text.slice(at, start) + placeholder(kind)
      at = end
      this.#counts.set(kind, (this.#counts.get(kind) ?? 0) + 1)
    }
    return out + text.slice(at)
  }

  /**
   * A copy of `value` with every string (object keys included) redacted; other values are kept. Shared
   * sub-objects are copied once per occurrence; a cycle is cut (replaced by `null`).
   */
  redactValue(value: unknown): unknown {
    return this.#redactValue(value, new Set())
  }

  #redactValue(value: unknown, path: Set<object>): unknown {
    if (typeof value === 'string') return this.redactText(value)
    if (typeof value !== 'object' || value === null) return value
    if (path.has(value)) return null
    path.add(value)
    try {
      if (Array.isArray(value)) return value.map((item) => this.#redactValue(item, path))
      const out: Record<string, unknown> = {}
      for (const [key, item] of Object.entries(value)) {
        out[this.redactText(key)] = this.#redactValue(item, path)
      }
      return out
    } finally {
      path.delete(value)
    }
  }

  report(): RedactionReport {
    let total = 0
    const byKind: Record<string, number> = {}
    for (const [kind, count] of [...this.#counts].sort(([a], [b]) => a.localeCompare(b))) {
      byKind[kind] = count
      total += count
    }
    return { total, byKind }
  }
}
