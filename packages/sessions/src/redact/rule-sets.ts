import { ASSIGNMENTS } from './assignments.js'
import { CONTEXTS } from './contexts.js'
import type { RuleSet } from './finding.js'
import { KEY_BLOCKS } from './key-blocks.js'
import { PROVIDER_TOKENS } from './provider-tokens.js'
import { SECRETLINT } from './secretlint-rules.js'
import { JWTS } from './structural-rules.js'

/**
 * Every family of rules the redactor runs, secretlint's recommended preset first (the runnable reference),
 * then ours for what it leaves out: key armor of any length, vendor tokens, JWTs, credentials given away by
 * their context, named values. Where two find the same range the first names it: the order goes from what
 * a secret is (`jwt`) to where it was found (`authorization`).
 */
export const RULE_SETS: readonly RuleSet[] = [
  SECRETLINT,
  KEY_BLOCKS,
  PROVIDER_TOKENS,
  JWTS,
  CONTEXTS,
  ASSIGNMENTS,
]
