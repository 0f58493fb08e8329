/**
 * Checks every relative link of the repository's reference text — README.md, packages/*\/README.md and
 * docs/*.md — the way GitHub resolves it: the target file or folder must exist, and a `#anchor` into a
 * Markdown file must name one of its headings (GitHub's slug: lower case, punctuation dropped, each space a
 * hyphen, `-1`, `-2`… for repeats) or an `<a id>`/`<a name>` in it. Links to other sites are not fetched.
 * Links inside code (fenced blocks, `inline code`) are text, not links, and are skipped.
 *
 *   node --import tsx scripts/check-links.ts [--root <dir>]
 *
 * Prints one line per broken link (`file:line: target — why`) and exits 1 if there is any, else prints how
 * many links it checked and exits 0.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export interface BrokenLink {
  /** The Markdown file the link is in, relative to the root. */
  readonly file: string
  /** 1-based line of the link. */
  readonly line: number
  readonly target: string
  readonly reason: string
}

export interface LinkReport {
  readonly files: readonly string[]
  readonly checked: number
  readonly broken: readonly BrokenLink[]
}

/** The Markdown files whose links are checked, relative to `root`, in a stable order. */
export function markdownFiles(root: string): string[] {
  const files: string[] = []
  if (existsSync(join(root, 'README.md'))) files.push('README.md')
  for (const folder of ['packages', 'docs']) {
    const dir = join(root, folder)
    if (!existsSync(dir)) continue
    for (const name of readdirSync(dir).sort()) {
      if (folder === 'packages' && existsSync(join(dir, name, 'README.md')))
        files.push(`packages/${name}/README.md`)
      if (folder === 'docs' && name.endsWith('.md')) files.push(`docs/${name}`)
    }
  }
  return files
}

interface Line {
  readonly number: number
  /** The line with inline code blanked out; empty for a line inside a fenced block. */
  readonly text: string
  readonly fenced: boolean
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/

/** The file's lines, with fenced code marked and inline code spans blanked (they hold no links). */
function lines(markdown: string): Line[] {
  const out: Line[] = []
  let fence: string | undefined
  markdown.split('\n').forEach((raw, index) => {
    const opener = FENCE.exec(raw)?.[1]
    if (fence !== undefined) {
      // A fence closes on a line of at least as many of the same character.
      if (opener !== undefined && opener[0] === fence[0] && opener.length >= fence.length) fence = undefined
      out.push({ number: index + 1, text: '', fenced: true })
      return
    }
    if (opener !== undefined) {
      fence = opener
      out.push({ number: index + 1, text: '', fenced: true })
      return
    }
    out.push({
      number: index + 1,
      text: raw.replace(/(`+)[^`]*?\1/g, (span) => ' '.repeat(span.length)),
      fenced: false,
    })
  })
  return out
}

/** GitHub's heading id (github-slugger): lower case, every character but letters, digits, `_`, `-` and spaces dropped, spaces to hyphens. */
export function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link in a heading counts by its text
    .replace(/<[^>]+>/g, '') // so do HTML tags
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase()
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '').replace(/ /g, '-')
}

/** Every anchor a Markdown file offers: its headings' slugs (repeats numbered) and explicit `<a id>`s. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  for (const line of lines(markdown)) {
    if (line.fenced) continue
    // Headings are read from the raw text (inline code in a heading is part of its id).
    const raw = markdown.split('\n')[line.number - 1] ?? ''
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(raw)?.[1]
    if (heading !== undefined) {
      const base = slug(heading)
      const count = seen.get(base) ?? 0
      seen.set(base, count + 1)
      anchors.add(count === 0 ? base : `${base}-${count}`)
    }
    for (const match of line.text.matchAll(/<a\s[^>]*?(?:id|name)\s*=\s*["']([^"']+)["']/gi))
      anchors.add(match[1]!)
  }
  return anchors
}

interface Link {
  readonly line: number
  readonly target: string
}

/** Inline links and images `[text](target "title")`, and reference definitions `[label]: target`. */
function linksOf(markdown: string): Link[] {
  const links: Link[] = []
  for (const line of lines(markdown)) {
    if (line.fenced) continue
    for (const match of line.text.matchAll(/\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+["'(][^)]*)?\)/g)) {
      links.push({ line: line.number, target: match[1]!.replace(/^<|>$/g, '') })
    }
    const definition = /^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/.exec(line.text)?.[1]
    if (definition !== undefined) links.push({ line: line.number, target: definition.replace(/^<|>$/g, '') })
  }
  return links
}

/** A scheme (`https:`, `mailto:`) or a protocol-relative `//host`: not a file of this repository. */
const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i

export function checkLinks(root: string): LinkReport {
  const files = markdownFiles(root)
  const anchorCache = new Map<string, Set<string>>()
  const anchors = (path: string): Set<string> => {
    let found = anchorCache.get(path)
    if (found === undefined) anchorCache.set(path, (found = anchorsOf(readFileSync(path, 'utf8'))))
    return found
  }
  const broken: BrokenLink[] = []
  let checked = 0
  for (const file of files) {
    const source = join(root, file)
    for (const { line, target } of linksOf(readFileSync(source, 'utf8'))) {
      if (EXTERNAL.test(target)) continue
      checked++
      const hashAt = target.indexOf('#')
      const pathPart = decodeURIComponent(hashAt === -1 ? target : target.slice(0, hashAt))
      const anchor = hashAt === -1 ? undefined : decodeURIComponent(target.slice(hashAt + 1))
      // GitHub resolves `/x` from the repository's root, anything else from the linking file's folder.
      const resolved =
        pathPart === ''
          ? source
          : pathPart.startsWith('/')
            ? join(root, pathPart)
            : resolve(dirname(source), pathPart)
      const report = (reason: string): void => void broken.push({ file, line, target, reason })
      if (!existsSync(resolved)) {
        report(`no such file: ${relative(root, resolved)}`)
        continue
      }
      if (anchor === undefined || anchor === '') continue
      if (!resolved.endsWith('.md') || !statSync(resolved).isFile()) {
        // Line anchors (#L10) into source files are GitHub's; anything else into a non-Markdown file is not checkable.
        if (!/^L\d+(?:-L\d+)?$/.test(anchor)) report(`an anchor into a file that is not Markdown`)
        continue
      }
      if (!anchors(resolved).has(anchor))
        report(`no heading or anchor "${anchor}" in ${relative(root, resolved)}`)
    }
  }
  return { files, checked, broken }
}

function main(): void {
  const rootAt = process.argv.indexOf('--root')
  const root =
    rootAt === -1
      ? resolve(dirname(fileURLToPath(import.meta.url)), '..')
      : resolve(process.argv[rootAt + 1] ?? '.')
  const { files, checked, broken } = checkLinks(root)
  for (const link of broken) console.log(`${link.file}:${link.line}: ${link.target} — ${link.reason}`)
  console.log(`${checked} relative links in ${files.length} files, ${broken.length} broken`)
  process.exitCode = broken.length === 0 ? 0 : 1
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main()
