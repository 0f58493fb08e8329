/**
 * Tokens whose vendor gives them a fixed prefix, found anywhere (prose, a command, a config): the shapes
 * the vendors document, as gitleaks' default rules and detect-secrets' plugins list them, for the vendors
 * secretlint's recommended rules leave out or match too narrowly (Stripe; OpenAI keys without the
 * `T3BlbkFJ` marker; Anthropic keys of any kind; npm tokens outside `.npmrc`; GitLab's other token types;
 * Slack's refresh tokens…). A prefix alone is not enough: each shape also fixes the alphabet and length of
 * what follows, and a token must not sit inside a longer word.
 *
 * An AWS secret access key has no prefix: 40 characters of base64 are taken as one only within a few
 * lines of an access key id (`AKIA…`, `ASIA…`), as `aws configure`, a credentials CSV and an `.env` show them.
 */
import type { Anchor } from './anchor-scan.js'
import type { RuleSet, SecretFinding } from './finding.js'

interface TokenShape {
  readonly kind: string
  /** Literal text every match contains (anchor-scan.ts). */
  readonly anchors: readonly string[]
  readonly pattern: RegExp
}

/**
 * Not preceded by a token character nor by `-` or `.` (`cache-key-<md5>` is no Mailgun key), and not
 * followed by one: the token is a word of its own.
 */
const B = '(?<![A-Za-z0-9_.-])'
const E = '(?![A-Za-z0-9_])'

function shape(kind: string, anchors: readonly string[], body: string, end = E, start = B): TokenShape {
  return { kind, anchors, pattern: new RegExp(`${start}(?:${body})${end}`, 'g') }
}

const SHAPES: readonly TokenShape[] = [
  shape(
    'stripe-key',
    ['sk_live_', 'rk_live_', 'sk_test_', 'rk_test_'],
    '[sr]k_(?:live|test)_[A-Za-z0-9]{16,247}',
  ),
  shape('stripe-webhook-secret', ['whsec_'], 'whsec_[A-Za-z0-9+/]{24,64}={0,2}', '(?![A-Za-z0-9+/=_])'),
  shape(
    'openai-key',
    ['sk-proj-', 'sk-svcacct-', 'sk-admin-'],
    'sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,300}',
    '(?![A-Za-z0-9_-])',
  ),
  // Legacy user keys: `sk-` and 48 letters and digits; DeepSeek's and others': `sk-` and 32 hex digits.
  shape('openai-key', ['sk-'], 'sk-(?:[A-Za-z0-9]{48}|[a-f0-9]{32})', '(?![A-Za-z0-9_-])'),
  shape('openrouter-key', ['sk-or-v1-'], 'sk-or-v1-[a-f0-9]{64}'),
  shape('anthropic-key', ['sk-ant-'], 'sk-ant-[a-z]{2,8}\\d{2}-[A-Za-z0-9_-]{20,200}', '(?![A-Za-z0-9_-])'),
  shape('github-token', ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'], 'gh[pousr]_[A-Za-z0-9]{30,76}'),
  shape('github-token', ['github_pat_'], 'github_pat_[A-Za-z0-9_]{40,255}'),
  shape(
    'gitlab-token',
    ['glpat-', 'gldt-', 'glrt-', 'glptt-', 'glcbt-', 'glimt-', 'glsoat-', 'glffct-', 'gloas-', 'glagent-'],
    'gl(?:pat|dt|rt|ptt|cbt|imt|soat|ffct|oas|agent)-[A-Za-z0-9_.-]{20,200}',
    '(?![A-Za-z0-9_.-])',
  ),
  shape('gitlab-token', ['GR1348941'], 'GR1348941[A-Za-z0-9_-]{20,50}', '(?![A-Za-z0-9_-])'),
  shape(
    'slack-token',
    ['xox', 'xapp-'],
    'xox[abeoprs]-(?:\\d-)?[A-Za-z0-9-]{10,250}|xapp-\\d-[A-Za-z0-9-]{10,250}',
    '(?![A-Za-z0-9_-])',
  ),
  shape('npm-token', ['npm_'], 'npm_[A-Za-z0-9]{36}'),
  // Google API keys: `AIza` and 35 URL-safe characters (Google Cloud's documented key format).
  shape('google-api-key', ['AIza'], 'AIza[0-9A-Za-z_-]{35}', '(?![0-9A-Za-z_-])'),
  shape('google-oauth-secret', ['GOCSPX-'], 'GOCSPX-[A-Za-z0-9_-]{28}', '(?![A-Za-z0-9_-])'),
  shape('google-oauth-token', ['ya29.'], 'ya29\\.[A-Za-z0-9_-]{30,2048}', '(?![A-Za-z0-9_-])'),
  shape('google-oauth-token', ['1//0'], '1//0[A-Za-z0-9_-]{40,512}', '(?![A-Za-z0-9_-])'),
  // secretlint's SendGrid rule wants a word character after `SG.`; a key's 22 characters may start with `-`.
  shape('sendgrid-key', ['SG.'], 'SG\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}', '(?![A-Za-z0-9_-])'),
  shape('huggingface-token', ['hf_'], 'hf_[A-Za-z0-9]{30,40}'),
  shape('twilio-key', ['SK'], 'SK[0-9a-f]{32}'),
  shape('mailgun-key', ['key-'], 'key-[0-9a-f]{32}'),
  shape('mailchimp-key', ['-us'], '[0-9a-f]{32}-us[0-9]{1,2}'),
  shape('digitalocean-token', ['dop_v1_', 'doo_v1_', 'dor_v1_'], 'do[opr]_v1_[a-f0-9]{64}'),
  shape('pypi-token', ['pypi-AgE'], 'pypi-AgE[A-Za-z0-9_-]{50,400}', '(?![A-Za-z0-9_-])'),
  shape('square-token', ['sq0atp-', 'sq0csp-'], 'sq0(?:atp|csp)-[A-Za-z0-9_-]{22,43}', '(?![A-Za-z0-9_-])'),
  shape(
    'planetscale-token',
    ['pscale_'],
    'pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.=-]{32,64}',
    '(?![A-Za-z0-9_.=-])',
  ),
  shape('postman-key', ['PMAK-'], 'PMAK-[a-f0-9]{24}-[a-f0-9]{34}'),
  shape('doppler-token', ['dp.'], 'dp\\.(?:pt|st|sa|ct|scim|audit)\\.[A-Za-z0-9]{40,44}'),
  shape('pulumi-token', ['pul-'], 'pul-[a-f0-9]{40}'),
  shape('age-secret-key', ['AGE-SECRET-KEY-1'], 'AGE-SECRET-KEY-1[0-9A-Z]{58}'),
  // In a bot API URL the token follows `bot`: only a digit may not come before it.
  shape('telegram-bot-token', [':AA'], '\\d{8,10}:AA[A-Za-z0-9_-]{33}', '(?![A-Za-z0-9_-])', '(?<![0-9])'),
  shape(
    'sentry-token',
    ['sntrys_', 'sntryu_'],
    'sntrys_[A-Za-z0-9+/=_]{50,400}|sntryu_[a-f0-9]{64}',
    '(?![A-Za-z0-9+/=_])',
  ),
  shape('supabase-token', ['sbp_'], 'sbp_[a-f0-9]{40}'),
  shape('azure-client-secret', ['Q~'], '[A-Za-z0-9_~.]{3}\\dQ~[A-Za-z0-9_~.-]{31,34}', '(?![A-Za-z0-9_~.-])'),
  shape('atlassian-token', ['ATATT3'], 'ATATT3[A-Za-z0-9_=-]{100,300}', '(?![A-Za-z0-9_=-])'),
  shape('netlify-token', ['nfp_'], 'nfp_[A-Za-z0-9]{36}'),
  shape('fly-token', ['fo1_'], 'fo1_[A-Za-z0-9_-]{43}', '(?![A-Za-z0-9_-])'),
  shape('replicate-token', ['r8_'], 'r8_[A-Za-z0-9]{37}'),
  shape(
    'tailscale-key',
    ['tskey-'],
    'tskey-(?:auth|api|client|scim|webhook)-[A-Za-z0-9]{6,20}-[A-Za-z0-9]{20,60}',
  ),
  shape('perplexity-key', ['pplx-'], 'pplx-[A-Za-z0-9]{48}'),
  shape('xai-key', ['xai-'], 'xai-[A-Za-z0-9]{80}'),
  shape(
    'discord-webhook',
    ['discord'],
    'https://(?:ptb\\.|canary\\.)?discord(?:app)?\\.com/api/webhooks/\\d{5,30}/[A-Za-z0-9_-]{60,90}',
    '(?![A-Za-z0-9_-])',
  ),
]

/** An AWS access key id (an IAM user's `AKIA`, a session's `ASIA`, secretlint's list) and its secret. */
const AWS_KEY_ID =
  /(?<![A-Z0-9])(?:A3T[A-Z0-9]|AKIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASIA)[A-Z0-9]{16}(?![A-Z0-9])/g
const AWS_SECRET = /(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{40}(?![A-Za-z0-9+/=])/g
/** How far from a key id its secret is looked for: the few lines `aws configure list` or a CSV puts them in. */
const AWS_PAIR_REACH = 400

/** Random-looking base64: letters of both cases and a digit, as a 240-bit key nearly always has. */
function looksLikeAwsSecret(value: string): boolean {
  return /[a-z]/.test(value) && /[A-Z]/.test(value) && /[0-9]/.test(value)
}

function scanAwsPairs(text: string, out: SecretFinding[]): void {
  AWS_KEY_ID.lastIndex = 0
  let reached = 0
  for (let id = AWS_KEY_ID.exec(text); id !== null; id = AWS_KEY_ID.exec(text)) {
    // Each stretch of text is searched once, however many key ids are near it.
    const from = Math.max(reached, id.index - AWS_PAIR_REACH)
    const to = Math.min(text.length, id.index + id[0].length + AWS_PAIR_REACH)
    if (from >= to) continue
    AWS_SECRET.lastIndex = from
    for (let m = AWS_SECRET.exec(text); m !== null && m.index + 40 <= to; m = AWS_SECRET.exec(text)) {
      if (looksLikeAwsSecret(m[0])) out.push({ start: m.index, end: m.index + 40, kind: 'aws-secret-key' })
    }
    // A secret that runs past `to` is looked for again from where it may start.
    reached = Math.max(from, to - 40)
  }
}

function scanProviderTokens(text: string, hits: ReadonlySet<string>): SecretFinding[] {
  const out: SecretFinding[] = []
  for (const { kind, anchors, pattern } of SHAPES) {
    if (!anchors.some((anchor) => hits.has(anchor))) continue
    for (const match of text.matchAll(pattern)) {
      out.push({ start: match.index, end: match.index + match[0].length, kind })
    }
  }
  if (AWS_ID_ANCHORS.some((anchor) => hits.has(anchor))) scanAwsPairs(text, out)
  return out
}

const AWS_ID_ANCHORS = ['A3T', 'AKIA', 'AGPA', 'AIDA', 'AROA', 'AIPA', 'ANPA', 'ANVA', 'ASIA']

const ANCHORS: readonly Anchor[] = [...SHAPES.flatMap((s) => s.anchors), ...AWS_ID_ANCHORS].map((text) => ({
  text,
}))

export const PROVIDER_TOKENS: RuleSet = { anchors: ANCHORS, scan: scanProviderTokens }
