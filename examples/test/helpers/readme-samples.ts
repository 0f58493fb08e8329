/**
 * Extracts the code samples of the repository's READMEs and type-checks them against the packages' live
 * sources, exactly as a user would paste them into an ESM TypeScript file next to the examples.
 */
import { readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

export const repoDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..')
const examplesDir = join(repoDir, 'examples')

/** Every README a user reads; each `ts` block in them must compile. */
export const READMES = [
  'README.md',
  'examples/README.md',
  'packages/recorder/README.md',
  'packages/fs-cache/README.md',
  'packages/shutdown/README.md',
  'packages/cli/README.md',
  'packages/sessions/README.md',
  'docs/reading.md',
  'docs/other-agents.md',
  'docs/big-records.md',
  'docs/recorder-reference.md',
] as const

/** Fence languages that are code and therefore checked; other fences (sh, json, text) are not. */
const CHECKED = new Set(['ts', 'typescript'])
/** Code languages we do not check yet: a sample in one of them fails the test instead of going unchecked. */
const UNCHECKED_CODE = new Set(['js', 'javascript', 'mjs', 'cjs', 'tsx', 'jsx', 'mts', 'cts'])

export interface Sample {
  /** `<readme>#<n>`, n counting the checked blocks of that README from 1. */
  readonly id: string
  readonly readme: string
  /** 1-based line of the sample's first code line in the README. */
  readonly line: number
  readonly lang: string
  readonly code: string
}

export function extractSamples(readme: string): Sample[] {
  const lines = readFileSync(join(repoDir, readme), 'utf8').split('\n')
  const samples: Sample[] = []
  for (let i = 0; i < lines.length; i++) {
    const open = /^(`{3,})\s*([\w-]*)/.exec(lines[i] as string)
    if (!open) continue
    const [, fence = '```', lang = ''] = open
    const start = i + 1
    let end = start
    while (end < lines.length && !(lines[end] as string).startsWith(fence)) end++
    if (CHECKED.has(lang) || UNCHECKED_CODE.has(lang)) {
      samples.push({
        id: `${readme}#${samples.length + 1}`,
        readme,
        line: start + 1,
        lang,
        code: lines.slice(start, end).join('\n'),
      })
    }
    i = end
  }
  return samples
}

/**
 * Type-checks every sample as its own ESM module (one program, so the packages are checked once) and
 * returns each sample's diagnostics as `README:line:col TSnnnn message`, keyed by sample id. `preamble`
 * declares, per README, what its samples assume exists (a `recorder`, a `workspace` path): one line,
 * prepended, so a sample's own lines keep their numbers (minus one).
 */
export function typeCheck(
  samples: readonly Sample[],
  preamble: Readonly<Record<string, string>>,
): Map<string, string[]> {
  const config = ts.readConfigFile(join(repoDir, 'tsconfig.base.json'), (p) => ts.sys.readFile(p))
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, repoDir)
  options.noEmit = true
  // `.ts` files under examples/ (a `"type": "module"` package): ESM, top-level await allowed.
  const virtual = new Map<string, Sample>()
  const text = new Map<string, string>()
  for (const sample of samples) {
    const file = join(examplesDir, '.readme-samples', `${sample.id.replace(/[^\w]+/g, '-')}.ts`)
    virtual.set(file, sample)
    const head = (preamble[sample.readme] ?? '').replace(/\n/g, ' ')
    // `export {}` keeps every sample a module, so one sample's names never leak into another's.
    text.set(file, `${head}\n${sample.code}\nexport {}\n`)
  }
  const host = ts.createCompilerHost(options)
  const fileExists = host.fileExists.bind(host)
  const readFile = host.readFile.bind(host)
  const getSourceFile = host.getSourceFile.bind(host)
  host.fileExists = (p) => text.has(p) || fileExists(p)
  host.readFile = (p) => text.get(p) ?? readFile(p)
  host.getSourceFile = (p, language, onError, create) => {
    const source = text.get(p)
    return source === undefined
      ? getSourceFile(p, language, onError, create)
      : ts.createSourceFile(p, source, language, true)
  }
  const program = ts.createProgram([...virtual.keys()], options, host)
  const found = new Map<string, string[]>(samples.map((s) => [s.id, []]))
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const sample = diagnostic.file && virtual.get(diagnostic.file.fileName)
    // Errors inside the packages themselves are their typecheck's business, not a README's.
    if (!sample || diagnostic.start === undefined || !diagnostic.file) continue
    const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start)
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')
    const where = `${relative(repoDir, join(repoDir, sample.readme))}:${sample.line + line - 1}:${character + 1}`
    found.get(sample.id)?.push(`${where} TS${diagnostic.code} ${message}`)
  }
  return found
}
