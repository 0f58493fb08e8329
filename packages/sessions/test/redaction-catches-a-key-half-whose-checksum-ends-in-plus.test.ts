import { describe, expect, it } from 'vitest'
import { Redactor } from '../src/redact/redactor.js'

// The second half of an armored OpenPGP key shown on its own (`tail key.asc`): its body is found by walking
// back from the END line. One key in 64 has a checksum line ending in `+` (`=+Jd+`), which the walk once
// took for the end of the body, leaving every line above it in clear (the planted-secrets test, with keys
// gpg makes at random, failed on such a key).
const HALF = `$ tail -5 key.asc
mgFELEwl5Y0dXHkzMoBhBQJrCyLmAhsDBQsJCAcCBhUKCQgLAgQWAgMBAh4BAheA
AAoJEI0dXHkzMoBhgOQA/iFNH62ZgeS+Gh4wW3xPOe9H8hYsYKcAaXF5W7qTiaId
AP4uMGaXORtxNINXmkdQWZV4wu7qiAbZ+eK8Mo2erYmNCw==
=+Jd+
-----END PGP PRIVATE KEY BLOCK-----
`

describe('a key half whose checksum ends in +', () => {
  it('is redacted from its first body line to its END', () => {
    expect(new Redactor().redactText(HALF)).toBe('$ tail -5 key.asc\n[REDACTED:private-key]\n')
  })
})
