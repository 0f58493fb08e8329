import { describe, expect, it } from 'vitest'
import { Redactor, findSecrets } from '../src/index.js'
import { GENERATORS, fakeSecrets } from './fixtures/fake-secrets.js'

describe('redaction', () => {
  it('replaces every planted secret by a typed placeholder and counts each kind', () => {
    const secrets = fakeSecrets(GENERATORS.length * 20, 1)
    const redactor = new Redactor()
    const missed: string[] = []
    for (const secret of secrets) {
      const out = redactor.redactText(secret.text)
      if (out.includes(secret.secret)) missed.push(`${secret.kind}: ${secret.text}`)
      expect(out).toMatch(/\[REDACTED:[a-z0-9-]+\]/)
    }
    expect(missed).toEqual([])
    const report = redactor.report()
    expect(report.total).toBeGreaterThanOrEqual(secrets.length)
    for (const kind of [
      'aws-access-key',
      'aws-secret-key',
      'github-token',
      'gitlab-token',
      'openai-key',
      'anthropic-key',
      'google-api-key',
      'slack-token',
      'private-key',
      'jwt',
      'connection-string',
      'generic-secret',
    ]) {
      expect(report.byKind[kind], kind).toBeGreaterThan(0)
    }
  })

  it('names the kind in the placeholder', () => {
    const redactor = new Redactor()
    const token = `ghp_${'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5'.slice(0, 36)}`
    expect(redactor.redactText(`token ${token} here`)).toBe('token [REDACTED:github-token] here')
    expect(redactor.report()).toEqual({ total: 1, byKind: { 'github-token': 1 } })
  })

  it('leaves ordinary session text alone', () => {
    const text = [
      'Run `npm test` and read src/index.ts:42; the key of the map is the session id.',
      'const token = getToken() // reads process.env.TOKEN',
      'password: ${DB_PASSWORD}',
      'api_key = "your-api-key-here"',
      'sha: 3f2c1a9e8b7d6c5f4e3d2c1b0a9f8e7d6c5b4a39 committed',
      'path /usr/local/lib/node_modules/typescript/lib/tsc.js',
      'https://github.com/sessiontape/sessiontape/blob/main/README.md',
    ].join('\n')
    expect(findSecrets(text)).toEqual([])
  })

  it('does not obey secretlint-disable comments written into a transcript', () => {
    const token = 'ghp_0123456789abcdefABCDEF0123456789abcd'
    const out = new Redactor().redactText(`// secretlint-disable\n${token}\n// secretlint-enable`)
    expect(out).not.toContain(token)
  })

  it('redacts strings and keys inside values, keeping other values', () => {
    const secret = fakeSecrets(1, 3)[0]!
    const redactor = new Redactor()
    const out = redactor.redactValue({ n: 1, ok: true, list: [secret.text, null], [secret.text]: 'k' })
    expect(JSON.stringify(out)).not.toContain(secret.secret)
    expect(out).toMatchObject({ n: 1, ok: true })
  })
})
