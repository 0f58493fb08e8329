/**
 * secretlint's recommended rule set (@secretlint/secretlint-rule-preset-recommend: MIT, maintained, one bundled
 * module with no dependencies) driven synchronously. secretlint's own engine is asynchronous and file-based;
 * the rules themselves are plain `file(source)` handlers that call `context.report`, so this small driver runs
 * them on a string and collects the ranges. Each rule is created once; `scan` only calls the handlers.
 */
import { rules, type RuleCreator } from '@secretlint/secretlint-rule-preset-recommend'
import type { Anchor } from './anchor-scan.js'
import type { RuleSet, SecretFinding } from './finding.js'

/**
 * Rules we do not run: `filter-comments` obeys `secretlint-disable` comments, which a hostile transcript
 * could write; `gcp` reads only `.p12` and `.json` files (by extension), and a transcript's text is `.txt`.
 */
const SKIPPED_RULES = new Set([
  '@secretlint/secretlint-rule-filter-comments',
  '@secretlint/secretlint-rule-gcp',
])

/**
 * Literal text every finding of a rule contains, read off the rule's patterns in the preset's source
 * (12.0.0, pinned): a text holding none of a rule's anchors is not given to it (see anchor-scan.ts). A
 * rule missing here is run on every text. `://` covers the URL-shaped rules (basic auth, database URLs,
 * whose schemes vary); `npm` only looks for `_authToken` in files named `.npmrc`/`package.json`, never ours.
 */
const RULE_ANCHORS: Readonly<Record<string, readonly Anchor[]>> = {
  aws: [
    ...['A3T', 'AKIA', 'AGPA', 'AIDA', 'AROA', 'AIPA', 'ANPA', 'ANVA', 'ASIA'].map((text) => ({ text })),
    // `(?:SECRET|secret|Secret)_?(?:ACCESS|access|Access)` and `(ACCOUNT|account|Account)`: any case is a
    // superset. (`secret` alone ran the rule's three patterns on every text naming a secret.)
    { text: 'secret_access', caseless: true },
    { text: 'secretaccess', caseless: true },
    { text: 'account', caseless: true },
  ],
  npm: [{ text: 'npm_' }],
  // Webhooks: `https://hooks.slack.com/services/` matched with the `i` flag.
  slack: [{ text: 'xox' }, { text: 'xapp-' }, { text: 'hooks.slack.com/services/', caseless: true }],
  basicauth: [{ text: '://' }],
  openai: [{ text: 'T3BlbkFJ' }],
  anthropic: [{ text: 'sk-ant-api0' }],
  groq: [{ text: 'gsk_' }],
  huggingface: [{ text: 'hf_' }],
  linear: [{ text: 'lin_api_' }],
  notion: [{ text: 'ntn_' }],
  privatekey: [{ text: '-----BEGIN' }],
  sendgrid: [{ text: 'SG.' }],
  shopify: [{ text: 'shp' }],
  github: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'].map((text) => ({ text })),
  gitlab: [{ text: 'glpat-' }],
  grafana: [{ text: 'glc_' }, { text: 'glsa_' }],
  '1password': [{ text: 'ops_' }],
  'database-connection-string': [{ text: '://' }],
  'hashicorp-vault': [{ text: 'hvs.' }, { text: 'hvb.' }, { text: 'hvr.' }],
  vercel: ['vcp_', 'vci_', 'vca_', 'vcr_', 'vck_'].map((text) => ({ text })),
  databricks: [{ text: 'dapi' }],
  docker: [{ text: 'dckr_pat_' }],
  figma: [{ text: 'figd_' }],
}

/** Every anchor of every rule, for the prefilter. */
export const SECRETLINT_ANCHORS: readonly Anchor[] = Object.values(RULE_ANCHORS).flat()

/** Options per rule: AWS key ids (`AKIA…`) are only scanned when asked for. */
const RULE_OPTIONS: Readonly<Record<string, Record<string, unknown>>> = {
  '@secretlint/secretlint-rule-aws': { enableIDScanRule: true },
}

/** Our placeholder names (`[REDACTED:<kind>]`) by rule, and by message where one rule finds several kinds. */
const KIND_BY_MESSAGE: Readonly<Record<string, string>> = {
  AWSAccessKeyID: 'aws-access-key',
  AWSSecretAccessKey: 'aws-secret-key',
  AWSAccountID: 'aws-account-id',
}
const KIND_BY_RULE: Readonly<Record<string, string>> = {
  aws: 'aws-key',
  gcp: 'gcp-service-account',
  npm: 'npm-token',
  slack: 'slack-token',
  basicauth: 'basic-auth',
  openai: 'openai-key',
  anthropic: 'anthropic-key',
  groq: 'groq-key',
  huggingface: 'huggingface-token',
  linear: 'linear-key',
  notion: 'notion-token',
  privatekey: 'private-key',
  sendgrid: 'sendgrid-key',
  shopify: 'shopify-token',
  github: 'github-token',
  gitlab: 'gitlab-token',
  grafana: 'grafana-token',
  '1password': '1password-token',
  'database-connection-string': 'connection-string',
  'hashicorp-vault': 'vault-token',
  vercel: 'vercel-token',
  databricks: 'databricks-token',
  docker: 'docker-token',
  figma: 'figma-token',
}

/** A translated message, kept as data: the id names the kind, the props hold the matched secret. */
interface Message {
  readonly id: string
  readonly props: Record<string, unknown> | undefined
}

interface LoadedRule {
  readonly kind: string
  /** Its anchors' texts; undefined: run on every text. */
  readonly anchors: readonly string[] | undefined
  readonly file: (source: { content: string; filePath: string; ext: string; contentType: 'text' }) => unknown
}

// One sink for every rule's reports: scan() sets it before calling the handlers and reads it after.
let sink: SecretFinding[] = []
let sinkText = ''
let loaded: readonly LoadedRule[] | undefined
/** Whether some loaded rule has no anchors (asked once per text: kept). */
let unanchored: boolean | undefined

function ruleSuffix(rule: RuleCreator): string {
  return rule.meta.id.replace(/^@secretlint\/secretlint-rule-/, '')
}

function load(): readonly LoadedRule[] {
  const out: LoadedRule[] = []
  for (const rule of rules) {
    if (SKIPPED_RULES.has(rule.meta.id)) continue
    const suffix = ruleSuffix(rule)
    const kind = KIND_BY_RULE[suffix] ?? suffix
    const handlers = rule.create(
      {
        report(report) {
          const message = report.message as Message
          sink.push(locate(report.range, message, KIND_BY_MESSAGE[message.id] ?? kind))
        },
        ignore() {
          // Only filter-comments ignores, and it is skipped.
        },
        createTranslator: () => (id, props) => ({ id, props }) satisfies Message,
      },
      RULE_OPTIONS[rule.meta.id] ?? {},
    )
    if (handlers.file !== undefined) {
      const anchors = RULE_ANCHORS[suffix]?.map((anchor) => anchor.text)
      out.push({ kind, anchors, file: handlers.file.bind(handlers) })
    }
  }
  return out
}

/**
 * The reported range, corrected to the secret itself: some rules report the start of the whole match with the
 * length of the captured secret (the AWS secret-key rule), so the secret named in the message's props wins
 * when it is found at or after the range's start.
 */
function locate(range: readonly [number, number], message: Message, kind: string): SecretFinding {
  const [start, end] = range
  const secret = Object.values(message.props ?? {}).find((v): v is string => typeof v === 'string')
  if (secret !== undefined && secret.length > 0 && sinkText.slice(start, end) !== secret) {
    const at = sinkText.indexOf(secret, start)
    if (at !== -1) return { start: at, end: at + secret.length, kind }
  }
  return { start, end, kind }
}

/** Whether some rule runs on every text: one a newer preset adds, whose anchors are not listed above. */
export function hasUnanchoredRule(): boolean {
  unanchored ??= (loaded ??= load()).some((rule) => rule.anchors === undefined)
  return unanchored
}

/**
 * Every secret secretlint's recommended rules find in `text` (ranges may overlap), given the anchors `text`
 * holds: a rule none of whose anchors is there is not run.
 */
export function scanWithSecretlint(text: string, hits: ReadonlySet<string>): SecretFinding[] {
  loaded ??= load()
  sink = []
  sinkText = text
  try {
    for (const rule of loaded) {
      if (rule.anchors !== undefined && !rule.anchors.some((anchor) => hits.has(anchor))) continue
      rule.file({ content: text, filePath: 'transcript.txt', ext: '.txt', contentType: 'text' })
    }
    return sink
  } finally {
    sink = []
    sinkText = ''
  }
}

export const SECRETLINT: RuleSet = { anchors: SECRETLINT_ANCHORS, scan: scanWithSecretlint }
