import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { AgentSpec, Scenario } from './agents/agent.js'
import { snapshot } from './files.js'
import { runAgent, type AgentRun } from './run-agent.js'
import type { ModelServer } from './server/server.js'
import type { ProxySink } from './server/sink.js'

/**
 * Runs every scenario of one agent in a fresh HOME (XDG dirs under it, TMPDIR too, so sockets and locks an
 * agent leaves stay in the run's folder), each scenario in a fresh working directory, against the server.
 */

export interface ScenarioOutcome {
  readonly scenario: Scenario
  readonly label: string
  readonly runs: readonly AgentRun[]
  readonly cwd: string
  /** Hosts the agent tried to reach through the proxy during this scenario (all refused). */
  readonly refused: readonly string[]
  /** Session files this scenario created or changed (the harness's own before/after snapshot). */
  readonly files: readonly string[]
}

export interface AgentOutcome {
  readonly home: string
  readonly bin: string
  readonly env: NodeJS.ProcessEnv
  readonly scenarios: readonly ScenarioOutcome[]
  readonly allFiles: readonly string[]
}

/** Bound of one agent command: a healthy run takes 5–30 s; a hung one must not hold the suite. */
const STEP_TIMEOUT_MS = 120_000
/** After the stall starts, time for the agent to write what it writes before it is killed. */
const KILL_DELAY_MS = 2_000

export function agentEnv(
  spec: AgentSpec,
  home: string,
  extra: NodeJS.ProcessEnv,
  proxyUrl: string,
  nodeBinDir?: string,
): NodeJS.ProcessEnv {
  const path = [nodeBinDir, process.env['PATH'] ?? '/usr/bin:/bin'].filter((p) => p !== undefined).join(':')
  return {
    PATH: path,
    HOME: home,
    USER: process.env['USER'] ?? 'conformance',
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
    TMPDIR: join(home, 'tmp'),
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    XDG_CACHE_HOME: join(home, '.cache'),
    // Anything that is not our server goes to the proxy sink, which refuses it and names the host.
    HTTP_PROXY: proxyUrl,
    HTTPS_PROXY: proxyUrl,
    http_proxy: proxyUrl,
    https_proxy: proxyUrl,
    NO_PROXY: '127.0.0.1,localhost',
    no_proxy: '127.0.0.1,localhost',
    ...extra,
  }
}

function workDir(root: string, label: string): string {
  const dir = join(root, 'work', label)
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'notes.txt'), 'Conformance notes: the scripted server answers every request.\n')
  writeFileSync(join(dir, 'hello.py'), 'print("hello")\n')
  return dir
}

export async function driveAgent(
  spec: AgentSpec,
  root: string,
  server: ModelServer,
  sink: ProxySink,
  bin: string,
  nodeBinDir?: string,
): Promise<AgentOutcome> {
  const home = join(root, 'home')
  for (const dir of ['tmp', '.config', '.local/share', '.local/state', '.cache'])
    mkdirSync(join(home, dir), { recursive: true })
  const ctx = { home, serverUrl: server.url, bin, ...(nodeBinDir === undefined ? {} : { nodeBinDir }) }
  spec.setup(ctx)
  const env = agentEnv(spec, home, spec.env(ctx), sink.url, nodeBinDir)
  const scenarios: ScenarioOutcome[] = []
  for (const scenario of spec.scenarios) {
    const label = `${spec.name}:${scenario.label}`
    const cwd = workDir(root, scenario.label)
    const before = snapshot(spec.sessionFiles(home))
    server.setScenario(label, { requestId: scenario.requestId })
    sink.take()
    const runs: AgentRun[] = []
    for (const step of scenario.steps) {
      const killWhen = step.kill === 'on-stall' ? server.stalled(label) : undefined
      const options = { cwd, env, timeoutMs: STEP_TIMEOUT_MS, killDelayMs: KILL_DELAY_MS }
      runs.push(await runAgent(bin, step.args, killWhen === undefined ? options : { ...options, killWhen }))
    }
    const after = snapshot(spec.sessionFiles(home))
    const files = [...after].filter(([file, stamp]) => before.get(file) !== stamp).map(([file]) => file)
    scenarios.push({ scenario, label, runs, cwd, files, refused: sink.take() })
  }
  server.setScenario('none', { requestId: false })
  return { home, bin, env, scenarios, allFiles: spec.sessionFiles(home) }
}
