/**
 * Coverage against secretlint's recommended preset, rule by rule: for each rule id the preset ships, a
 * secret in that rule's own shape (secretlint itself must find it, run alone through our driver) is fully
 * replaced by the redactor. The two rules we do not run are named with the rule that covers their ground.
 * The table is printed; the README's "Redaction" section shows the same.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { rules } from '@secretlint/secretlint-rule-preset-recommend'
import { describe, expect, it } from 'vitest'
import { Redactor } from '../src/index.js'
import { SECRETLINT_ANCHORS, scanWithSecretlint } from '../src/redact/secretlint-rules.js'

const hasOpenssl = spawnSync('sh', ['-c', 'command -v openssl']).status === 0

const A = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
/** Reproducible "random" characters of an alphabet. */
function chars(alphabet: string, n: number, seed: number): string {
  let out = ''
  for (let i = 0; i < n; i++) out += alphabet[(i * 7 + seed * 13 + ((i * i) % 11)) % alphabet.length]
  return out
}

/** base64 of a JSON object whose length makes the encoding end in `fQ==` (1Password's service tokens). */
function onePasswordToken(): string {
  let json = `{"signInAddress":"my.1password.com","userAuth":{"method":"SRPg-4096"},"x":"${chars(A, 60, 3)}"}`
  while (json.length % 3 !== 1) json = json.replace('"x":"', '"x":"a')
  return `ops_${Buffer.from(json).toString('base64')}`
}

/** A secret in each rule's shape, in the context a transcript shows it. */
const SAMPLES: Readonly<Record<string, { text: string; secret: string }>> = {
  aws: { text: 'aws_access_key_id = AKIAQ3EGRT5YKZ7WMXPN', secret: 'AKIAQ3EGRT5YKZ7WMXPN' },
  privatekey: (() => {
    // openssl's own key when it is installed; otherwise a PKCS#1 shape (`MII…`, 64-character lines).
    const key = hasOpenssl
      ? execFileSync('openssl', ['genrsa', '-traditional', '1024'], { encoding: 'utf8' })
      : `-----BEGIN RSA PRIVATE KEY-----\nMIICXAIBAAKBgQ${chars(A, 49, 30)}\n${chars(A, 64, 31)}\n${chars(A, 64, 32)}\n-----END RSA PRIVATE KEY-----\n`
    return { text: key, secret: key.split('\n')[2]! }
  })(),
  npm: { text: `token npm_${chars(A, 36, 1)}`, secret: `npm_${chars(A, 36, 1)}` },
  basicauth: { text: `https://admin:${chars(A, 12, 2)}@ci.example.com/job`, secret: chars(A, 12, 2) },
  slack: { text: `xoxb-123456789012-${chars(A, 24, 4)}`, secret: `xoxb-123456789012-${chars(A, 24, 4)}` },
  sendgrid: {
    text: `SG.${chars(A, 22, 5)}.${chars(A, 43, 6)}`,
    secret: `SG.${chars(A, 22, 5)}.${chars(A, 43, 6)}`,
  },
  shopify: {
    text: `shpat_${chars('0123456789abcdef', 32, 7)}`,
    secret: `shpat_${chars('0123456789abcdef', 32, 7)}`,
  },
  github: { text: `ghp_${chars(A, 36, 8)}`, secret: `ghp_${chars(A, 36, 8)}` },
  gitlab: { text: `glpat-${chars(A, 20, 9)}`, secret: `glpat-${chars(A, 20, 9)}` },
  grafana: {
    text: `glsa_${chars(A, 32, 10)}_${chars('0123456789abcdef', 8, 10)}`,
    secret: `glsa_${chars(A, 32, 10)}_${chars('0123456789abcdef', 8, 10)}`,
  },
  openai: {
    text: `sk-proj-${chars(A, 74, 11)}T3BlbkFJ${chars(A, 74, 12)}`,
    secret: `sk-proj-${chars(A, 74, 11)}T3BlbkFJ${chars(A, 74, 12)}`,
  },
  anthropic: { text: `sk-ant-api03-${chars(A, 93, 13)}AA`, secret: `sk-ant-api03-${chars(A, 93, 13)}AA` },
  groq: { text: `gsk_${chars(A, 52, 14)}`, secret: `gsk_${chars(A, 52, 14)}` },
  huggingface: { text: `hf_${chars(A.slice(0, 52), 34, 15)}`, secret: `hf_${chars(A.slice(0, 52), 34, 15)}` },
  linear: { text: `lin_api_${chars(A, 40, 16)}`, secret: `lin_api_${chars(A, 40, 16)}` },
  notion: { text: `ntn_12345678901${chars(A, 35, 17)}`, secret: `ntn_12345678901${chars(A, 35, 17)}` },
  '1password': { text: `OP_SERVICE_ACCOUNT_TOKEN=${onePasswordToken()}`, secret: onePasswordToken() },
  'database-connection-string': {
    text: `mongodb+srv://app:${chars(A, 16, 18)}@cluster0.example.net/db`,
    secret: chars(A, 16, 18),
  },
  'hashicorp-vault': { text: `hvs.${chars(A, 95, 19)}`, secret: `hvs.${chars(A, 95, 19)}` },
  vercel: { text: `vcp_${chars(A, 30, 20)}`, secret: `vcp_${chars(A, 30, 20)}` },
  databricks: {
    text: `dapi${chars('0123456789abcdef', 32, 21)}`,
    secret: `dapi${chars('0123456789abcdef', 32, 21)}`,
  },
  docker: { text: `dckr_pat_${chars(A, 27, 22)}`, secret: `dckr_pat_${chars(A, 27, 22)}` },
  figma: { text: `figd_${chars(A, 40, 23)}`, secret: `figd_${chars(A, 40, 23)}` },
}

/** Rules we do not run, and what covers their ground. */
const NOT_RUN: Readonly<Record<string, string>> = {
  gcp: 'reads .json/.p12 files only; a service account key in a transcript is caught by its PEM armor (key-blocks.ts)',
  'filter-comments':
    'not a secret rule: a transcript could switch redaction off with a secretlint-disable comment',
}

describe('coverage of secretlint’s recommended rules', () => {
  it('redacts a secret in the shape of every rule the preset ships, and names the two it does not run', () => {
    const all = new Set(SECRETLINT_ANCHORS.map((anchor) => anchor.text))
    const rows: string[] = ['| secretlint rule id | covered by | sample redacted |', '| --- | --- | --- |']
    for (const rule of rules) {
      const suffix = rule.meta.id.replace(/^@secretlint\/secretlint-rule-/, '')
      if (suffix === 'gcp' && hasOpenssl) {
        // Its ground, covered by ours: a service account key file as a tool prints it.
        const key = execFileSync(
          'openssl',
          ['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:1024'],
          {
            encoding: 'utf8',
          },
        )
        const file = JSON.stringify({ type: 'service_account', project_id: 'p', private_key: key }, null, 2)
        const redacted = new Redactor().redactText(file)
        expect(redacted).not.toContain(key.split('\n')[3]!)
        rows.push(
          `| ${rule.meta.id} | not run: ${NOT_RUN[suffix]} | ✓ ${redacted.match(/\[REDACTED:[\w-]+\]/)?.[0]} |`,
        )
        continue
      }
      if (suffix in NOT_RUN) {
        rows.push(`| ${rule.meta.id} | not run: ${NOT_RUN[suffix]} | — |`)
        continue
      }
      const sample = SAMPLES[suffix]
      expect(sample, `no sample for ${rule.meta.id}: a new rule in the preset`).toBeDefined()
      const { text, secret } = sample!
      // The sample is in the rule's own shape: secretlint's rules, run alone, find it.
      const at = text.indexOf(secret)
      const found = scanWithSecretlint(text, all).filter((f) => f.start <= at && f.end >= at + secret.length)
      expect(found.length, `${rule.meta.id} finds its sample`).toBeGreaterThan(0)
      const redacted = new Redactor().redactText(text)
      expect(redacted, rule.meta.id).not.toContain(secret)
      rows.push(`| ${rule.meta.id} | secretlint (run) | ✓ ${redacted.match(/\[REDACTED:[\w-]+\]/)?.[0]} |`)
    }
    console.log(rows.join('\n'))
  })
})
