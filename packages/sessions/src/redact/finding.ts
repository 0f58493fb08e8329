/** A secret found in a text: `[start, end)` in UTF-16 code units, and what kind it is (`github-token`…). */
export interface SecretFinding {
  readonly start: number
  readonly end: number
  readonly kind: string
}
