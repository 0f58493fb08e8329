import type { Anchor } from './anchor-scan.js'

/** A secret found in a text: `[start, end)` in UTF-16 code units, and what kind it is (`github-token`…). */
export interface SecretFinding {
  readonly start: number
  readonly end: number
  readonly kind: string
}

/**
 * A family of rules the redactor runs: the literal anchors its findings contain (see anchor-scan.ts) and a
 * scan given the anchors a text holds. A scan may skip the work of rules whose anchors are absent, and must
 * find nothing more when given every anchor (the prefilter test checks both ways agree).
 */
export interface RuleSet {
  readonly anchors: readonly Anchor[]
  scan(text: string, hits: ReadonlySet<string>): SecretFinding[]
}
