// What the writer pays to learn whether a piece of a held string needs escaping (held-text.ts), against the
// tests it replaced and against escaping it outright, per 64 Ki piece over a whole string, fastest of 40
// after 10 to warm up, in rounds so the machine's drift spreads over all of them. Strings: the write bench's
// ~2.5 MB of base64 (one-byte, nothing to escape), 2 MB of ASCII prose, and 2 MB of text with accents,
// CJK and emoji (two-byte, surrogate pairs, nothing to escape).
//
// Run: node --conditions=@sessiontape/source --import tsx bench/escape-test.ts
import { randomBytes } from 'node:crypto'

import { needsEscape, PIECE_CHARS, pieceEnd } from '../src/write/serialize/held-text.js'

// The test before: a match tried at every position, and every surrogate (paired too) sent to the escape.
// eslint-disable-next-line no-control-regex -- the control characters are what it looks for
const UNANCHORED = /["\\\u0000-\u001f\ud800-\udfff]/
// One anchored, negated class over everything (a middle step).
// eslint-disable-next-line no-control-regex -- as above
const ANCHORED = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/

const strings: Record<string, string> = {
  'base64, 2.5 MB': randomBytes(1_875_000).toString('base64'),
  'ASCII prose, 2 MB': 'The quick brown fox jumps over the lazy dog; then it reads the logs. '.repeat(30_000),
  'accents, CJK, emoji': 'Grüße, ça va? 漢字かな交じり文 😀 fine — done. '.repeat(60_000),
}
const tests: Record<string, (piece: string) => boolean> = {
  'unanchored class (before)': (piece) => UNANCHORED.test(piece),
  'before, then its escapes': (piece) => UNANCHORED.test(piece) && JSON.stringify(piece).length > 0,
  'anchored negated class': (piece) => !ANCHORED.test(piece),
  'needsEscape (now)': needsEscape,
  'JSON.stringify the piece': (piece) => JSON.stringify(piece).length !== piece.length + 2,
}

// Cut as the writer cuts a held string (no surrogate pair split).
function pieces(text: string): string[] {
  const out: string[] = []
  for (let from = 0; from < text.length;) {
    const end = pieceEnd(text, from, PIECE_CHARS)
    out.push(text.slice(from, end))
    from = end
  }
  return out
}

const ROUNDS = 5
const best = new Map<string, number>()
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, text] of Object.entries(strings)) {
    const cut = pieces(text)
    for (const [label, test] of Object.entries(tests)) {
      let fastest = Infinity
      let found = 0
      for (let run = 0; run < 50; run++) {
        const start = performance.now()
        found = 0
        for (const piece of cut) if (test(piece)) found++
        if (run >= 10) fastest = Math.min(fastest, performance.now() - start)
      }
      const key = `${name}\t${label}\t${found}/${cut.length}`
      best.set(key, Math.min(best.get(key) ?? Infinity, fastest))
    }
  }
}
console.log(
  `Node ${process.version}: ms per whole string, fastest over ${ROUNDS} rounds (pieces that need escaping / pieces)`,
)
for (const [key, ms] of best) {
  const [name, label, found] = key.split('\t')
  console.log(`${name!.padEnd(22)} ${label!.padEnd(28)} ${ms.toFixed(2).padStart(6)} ms  ${found}`)
}
