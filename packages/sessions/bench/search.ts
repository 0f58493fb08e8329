/**
 * The catalog and search benchmark (issue 25), printed side by side with its anchors in one run:
 *
 *   node --conditions=@sessiontape/source --import tsx bench/search.ts [--sessions 3000] [--bytes 450000000]
 *        [--dir <existing tree>] [--runs 3]
 *
 * Generates a tree of Claude Code transcripts (generate-claude-tree.ts; kept for the next run when
 * `--dir` names it), builds the CLI as its package does (scripts/build.ts) and times whole processes,
 * as a user runs them: `list --json` cold (empty cache) and warm, the recorder's own listing that reads
 * every transcript whole (`list --json --format claude-code <dir>`, the "today" anchor), `search` cold and
 * warm (and warm without the CLI's code cache), and `rg -n -F <token>` over the same directory (every
 * matching line, as search returns every hit), its runs taking turns with the warm searches'; the token is
 * in 50 sessions (generate-claude-tree.ts); and the floor under every CLI row: `node -e 0` (a bare Node start)
 * and `sessiontape --version` (Node, plus starting the CLI: its bundle from the code cache). Checks
 * that search finds every file rg finds and all 50 planted, says `truncated: false` and names nothing
 * unsearched, and that nothing under the tree changed (bytes, mtimes, names).
 * Medians of `--runs` warm runs: wall time, CPU time (user + system: on a machine shared with other jobs
 * it moves less than wall time) and peak RSS from GNU time; the load average before and after. Never
 * asserts on time.
 */
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { buildCli } from '../../cli/scripts/build.js'
import { generateClaudeTree, NEEDLE_SESSIONS, NEEDLE_TOKEN } from './generate-claude-tree.js'

const here = path.dirname(fileURLToPath(import.meta.url))
const { values } = parseArgs({
  options: {
    sessions: { type: 'string', default: '3000' },
    bytes: { type: 'string', default: '450000000' },
    dir: { type: 'string' },
    runs: { type: 'string', default: '3' },
  },
})
const sessions = Number(values.sessions)
const bytes = Number(values.bytes)
const runs = Number(values.runs)

const work = await mkdtemp(path.join(os.tmpdir(), 'sessiontape-search-bench-'))
const tree = values.dir ?? path.join(work, 'projects')
if (!existsSync(path.join(tree, '.generated'))) {
  process.stdout.write(`generating ${sessions} sessions (~${Math.round(bytes / 1e6)} MB) in ${tree}…\n`)
  await generateClaudeTree(tree, { sessions, targetBytes: bytes })
  // A marker the walk skips (dot-file, not a transcript): the next run with --dir reuses the tree.
  await writeFile(path.join(tree, '.generated'), '')
}
// The CLI as it ships: the package's own build (one CommonJS bundle and the start-up module that runs it
// from its V8 code cache) with its bin beside it, run as `node <bin>` — what `sessiontape` runs.
const cli = path.join(work, 'cli/bin/sessiontape.cjs')
await buildCli(path.join(work, 'cli/dist'))
await mkdir(path.dirname(cli))
await copyFile(path.join(here, '../../cli/bin/sessiontape.cjs'), cli)
const cacheDir = path.join(work, 'cache')
const hasTime = existsSync('/usr/bin/time')
const hasRg = spawnSync('rg', ['--version']).status === 0

interface Run {
  readonly ms: number
  /** User + system CPU time (GNU time), when known. */
  readonly cpuMs: number | undefined
  readonly rssMb: number | undefined
  readonly code: number | null
  readonly stdout: string
}

function run(command: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): Run {
  const argv = hasTime ? ['-f', '%U %S %M', command, ...args] : args
  const start = performance.now()
  const child = spawnSync(hasTime ? '/usr/bin/time' : command, argv, {
    env: { ...process.env, SESSIONTAPE_CACHE_DIR: cacheDir, NO_COLOR: '1', ...env },
    maxBuffer: 1024 * 1024 * 1024,
    encoding: 'utf8',
  })
  const ms = performance.now() - start
  const times = hasTime ? /([\d.]+) ([\d.]+) (\d+)\s*$/.exec(child.stderr) : null
  return {
    ms,
    cpuMs: times === null ? undefined : (Number(times[1]) + Number(times[2])) * 1000,
    rssMb: times === null ? undefined : Number(times[3]) / 1024,
    code: child.status,
    stdout: child.stdout,
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

type Command = readonly [command: string, args: readonly string[], env?: NodeJS.ProcessEnv]

/** Each command run `runs` times, the commands taking turns (so machine noise falls on each alike). */
function warmTogether(...commands: Command[]): (Run & { all: number[] })[] {
  const all: Run[][] = commands.map(() => [])
  for (let i = 0; i < runs; i++)
    commands.forEach(([command, args, env], k) => all[k]!.push(run(command, args, env)))
  return all.map(summary)
}

function warm(command: string, args: readonly string[]): Run & { all: number[] } {
  return warmTogether([command, args])[0]!
}

function summary(all: Run[]): Run & { all: number[] } {
  const ms = all.map((r) => r.ms)
  const mid = all.find((r) => r.ms === median(ms))!
  const cpu = all.flatMap((r) => (r.cpuMs === undefined ? [] : [r.cpuMs]))
  return {
    ...mid,
    cpuMs: cpu.length === 0 ? undefined : median(cpu),
    rssMb: Math.max(...all.map((r) => r.rssMb ?? 0)),
    all: ms,
  }
}

/** Names, sizes, mtimes and content hashes of everything under `dir` (the listed tree must not change). */
async function fingerprint(dir: string): Promise<string> {
  const hash = createHash('sha256')
  for (const name of (await readdir(dir, { recursive: true })).sort()) {
    const file = path.join(dir, name)
    const info = await stat(file)
    hash.update(`${name}\0${info.mtimeMs}\0${info.size}\0`)
    if (info.isFile()) hash.update(await readFile(file))
  }
  return hash.digest('hex')
}

const node = process.execPath
const before = await fingerprint(tree)
const rows: [string, string, string, string, string][] = []
const row = (what: string, r: Run | undefined, note = '') =>
  rows.push([
    what,
    r === undefined ? '–' : `${(r.ms / 1000).toFixed(2)} s`,
    r?.cpuMs === undefined ? '–' : `${(r.cpuMs / 1000).toFixed(2)} s`,
    r?.rssMb === undefined ? '–' : `${Math.round(r.rssMb)} MB`,
    note,
  ])
const loadAverage = (): string =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')
const loadBefore = loadAverage()

const bare = warm(node, ['-e', '0'])
const loaded = warm(node, [cli, '--version'])
await rm(cacheDir, { recursive: true, force: true })
const listCold = run(node, [cli, 'list', '--json', tree])
const listWarm = warm(node, [cli, 'list', '--json', tree])
const listOld = run(node, [cli, 'list', '--json', '--format', 'claude-code', tree])
const listed = (JSON.parse(listWarm.stdout) as unknown[]).length
await rm(cacheDir, { recursive: true, force: true })
// No --limit: every hit, as a user gets it.
const searchArgs = [cli, 'search', NEEDLE_TOKEN, tree, '--json']
const searchCold = run(node, searchArgs)
const [searchWarm, searchUncached, rgRuns] = warmTogether(
  [node, searchArgs],
  [node, searchArgs, { SESSIONTAPE_DISABLE_CODE_CACHE: '1' }],
  ...(hasRg ? [['rg', ['-n', '-F', NEEDLE_TOKEN, tree]] as const] : []),
)
const common = warm(node, [cli, 'search', 'function', tree, '--json', '--limit', '20'])
if (searchWarm === undefined || searchUncached === undefined) throw new Error('unreachable: two commands ran')
const rg = hasRg ? rgRuns : undefined
const after = await fingerprint(tree)

const answer = JSON.parse(searchWarm.stdout) as {
  total: number
  truncated: boolean
  unsearched: unknown[]
  hits: { file: string }[]
}
const hitFiles = new Set(answer.hits.map((h) => h.file))
// `rg -n` prints `<file>:<line>:<text>`: the file is what comes before `:<digits>:`.
const rgFiles = new Set(
  (rg?.stdout ?? '')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => /^(.*?):\d+:/.exec(line)?.[1] ?? line),
)
const missed = [...rgFiles].filter((file) => !hitFiles.has(file))

row('node -e 0 (a bare Node start)', bare, `median of ${runs}; floor`)
row('sessiontape --version (start the CLI and exit)', loaded, `median of ${runs}; floor`)
row('list --json, cold (empty cache)', listCold, `${listed} sessions`)
row('list --json, warm', listWarm, `median of ${runs}`)
row('list --json --format claude-code (reads every file whole: the old path)', listOld, 'anchor')
row('search <token> --json, cold (builds the index)', searchCold)
row(
  'search <token> --json, warm',
  searchWarm,
  `${hitFiles.size} files, ${answer.total} hits; median of ${runs}`,
)
row('  the same without its code cache', searchUncached, 'SESSIONTAPE_DISABLE_CODE_CACHE=1')
row('search function --json, warm (a common word: many candidates)', common, 'limit 20')
row(
  'rg -n -F <token>',
  rg,
  hasRg ? `${rgFiles.size} files; anchor, runs taking turns with the two above` : 'ripgrep not installed',
)

const width = Math.max(...rows.map((r) => r[0].length))
let treeBytes = 0
for (const name of await readdir(tree, { recursive: true })) {
  const info = await stat(path.join(tree, name))
  if (info.isFile()) treeBytes += info.size
}
process.stdout.write(
  `\n${listed} sessions, ${Math.round(treeBytes / 1e6)} MB in ${tree}; node ${process.version}; ${os.cpus().length} CPUs; load average ${loadBefore} before, ${loadAverage()} after\n\n`,
)
process.stdout.write(
  `${''.padEnd(width)}  ${'wall'.padStart(8)}  ${'cpu'.padStart(8)}  ${'rss'.padStart(7)}\n`,
)
for (const [what, time, cpu, rss, note] of rows) {
  process.stdout.write(
    `${what.padEnd(width)}  ${time.padStart(8)}  ${cpu.padStart(8)}  ${rss.padStart(7)}  ${note}\n`,
  )
}
if (rg !== undefined) {
  const ratio = (a: number | undefined, b: number | undefined) =>
    a === undefined || b === undefined ? '–' : `${(a / b).toFixed(2)}×`
  process.stdout.write(
    `\nwarm search / rg: ${ratio(searchWarm.ms, rg.ms)} wall, ${ratio(searchWarm.cpuMs, rg.cpuMs)} cpu; ` +
      `--version floor / rg: ${ratio(loaded.ms, rg.ms)} wall, ${ratio(loaded.cpuMs, rg.cpuMs)} cpu; ` +
      `warm search over the floor: ${((searchWarm.ms - loaded.ms) / 1000).toFixed(2)} s wall\n`,
  )
  // The runs took turns, so each search has an rg run beside it: the ratio within each round cancels
  // the machine's drift between rounds (on a shared VM its speed moves by a third within minutes).
  const perRound = searchWarm.all.map((ms, i) => ms / rg.all[i]!).sort((a, b) => a - b)
  const at = (q: number) => perRound[Math.min(perRound.length - 1, Math.floor(q * perRound.length))]!
  process.stdout.write(
    `warm search / rg within each round: median ${median(perRound).toFixed(2)}× ` +
      `(interquartile ${at(0.25).toFixed(2)}–${at(0.75).toFixed(2)}×, ${perRound.length} rounds)\n`,
  )
}
process.stdout.write(`missed by search (files rg finds): ${missed.length}\n`)
process.stdout.write(
  `sessions holding the token found: ${hitFiles.size} of ${NEEDLE_SESSIONS} planted; truncated: ${answer.truncated}; unsearched: ${answer.unsearched.length}\n`,
)
process.stdout.write(`tree unchanged (bytes, mtimes, names): ${before === after ? 'yes' : 'NO'}\n`)
await rm(work, { recursive: true, force: true })
