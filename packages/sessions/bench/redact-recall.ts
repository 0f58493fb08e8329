/**
 * Redaction quality, printed (not asserted):
 * - recall on planted secrets: realistic fakes generated per documented format (test/fixtures/fake-secrets.ts;
 *   no public corpus of planted secrets can be fetched here), in the contexts a transcript shows them;
 * - false positives on real sessions: every finding in /work/shared/samples (or the folder given), where no
 *   live secret is expected, listed with its kind and a short excerpt for a person to judge.
 *
 * Run: node --conditions=@sessiontape/source --import tsx packages/sessions/bench/redact-recall.ts [samples-dir]
 */
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { Redactor, findSecrets } from '../src/index.js'
import { GENERATORS, fakeSecrets } from '../test/fixtures/fake-secrets.js'

const PER_FORMAT = 200
const secrets = fakeSecrets(GENERATORS.length * PER_FORMAT, 2024)
const byKind = new Map<string, { planted: number; caught: number; caughtInJson: number }>()
const redactor = new Redactor()
for (const secret of secrets) {
  const row = byKind.get(secret.kind) ?? { planted: 0, caught: 0, caughtInJson: 0 }
  row.planted++
  if (!redactor.redactText(secret.text).includes(secret.secret.split('\n')[0]!)) row.caught++
  // As a transcript line holds it: inside a JSON string (quotes and newlines escaped).
  const json = JSON.stringify({ output: secret.text })
  const firstPart = JSON.stringify(secret.secret.split('\n')[0]!).slice(1, -1)
  if (!redactor.redactText(json).includes(firstPart)) row.caughtInJson++
  byKind.set(secret.kind, row)
}
let planted = 0
let caught = 0
let caughtInJson = 0
console.log('kind                 planted  recall  recall-in-JSON-line')
for (const [kind, row] of [...byKind].sort()) {
  planted += row.planted
  caught += row.caught
  caughtInJson += row.caughtInJson
  console.log(
    `${kind.padEnd(20)} ${String(row.planted).padStart(7)}  ${((100 * row.caught) / row.planted).toFixed(1).padStart(5)}%  ${((100 * row.caughtInJson) / row.planted).toFixed(1).padStart(5)}%`,
  )
}
console.log(
  `${'all'.padEnd(20)} ${String(planted).padStart(7)}  ${((100 * caught) / planted).toFixed(1).padStart(5)}%  ${((100 * caughtInJson) / planted).toFixed(1).padStart(5)}%`,
)

const samples = process.argv[2] ?? '/work/shared/samples'
const files: string[] = []
const walk = (dir: string): void => {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) walk(path)
    else if (/\.jsonl?$/.test(name)) files.push(path)
  }
}
try {
  walk(samples)
} catch {
  console.log(`\nno samples at ${samples}: false positives not measured`)
  process.exit(0)
}
let lines = 0
let bytes = 0
const findings: string[] = []
for (const file of files) {
  const text = readFileSync(file, 'utf8')
  bytes += Buffer.byteLength(text)
  for (const line of text.split('\n')) {
    if (line === '') continue
    lines++
    for (const f of findSecrets(line))
      findings.push(
        `${f.kind.padEnd(18)} ${file.slice(samples.length + 1)}: ${JSON.stringify(line.slice(Math.max(0, f.start - 30), f.end + 10))}`,
      )
  }
}
console.log(
  `\nsamples: ${files.length} files, ${lines} lines, ${(bytes / 1024).toFixed(0)} KiB; findings: ${findings.length}`,
)
for (const finding of findings) console.log(`  ${finding.slice(0, 220)}`)
