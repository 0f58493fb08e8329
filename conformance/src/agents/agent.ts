/**
 * What the harness needs to know of one agent CLI: how to install and point it at our server, the commands
 * of each scenario, where it keeps its sessions, and (where it keeps one) its own cumulative usage figure.
 */

export interface AgentContext {
  /** The fresh HOME of this agent's run (XDG dirs live under it too). */
  readonly home: string
  /** The model server's base URL, `http://127.0.0.1:<port>`. */
  readonly serverUrl: string
  /** The agent's command (the package's bin) and, for those that need it, the Node 22 folder to put first on PATH. */
  readonly bin: string
  readonly nodeBinDir?: string
}

/** One command of a scenario. `kill: 'on-stall'` kills the agent once the server's stall has started. */
export interface Step {
  readonly args: readonly string[]
  readonly kill?: 'on-stall'
}

export type ScenarioLabel = 'simple' | 'tool-resume' | 'killed' | 'subagent'

export interface Scenario {
  readonly label: ScenarioLabel
  /** Send Anthropic's `request-id` header in this scenario (both cases must be read right). */
  readonly requestId: boolean
  readonly steps: readonly Step[]
  /** Texts `show` must print for this scenario's sessions (prompt markers; the server adds answers, tools). */
  readonly prompts: readonly string[]
}

/** What an agent's own total may need beyond its files: OpenCode asks its own CLI (`opencode db`). */
export interface CumulativeContext {
  readonly bin: string
  readonly env: NodeJS.ProcessEnv
  /** The scenario's working directory (OpenCode keys sessions on it). */
  readonly cwd: string
}

/** The agent's own cumulative figure for a set of its session files, when it keeps one. */
export interface Cumulative {
  /** Where it came from, e.g. `last token_count total_token_usage`. */
  readonly source: string
  readonly inputTokens: number
  readonly outputTokens: number
}

export interface AgentSpec {
  /** The key in versions.json and the table's name. */
  readonly name: string
  readonly title: string
  readonly bin: string
  readonly needsNode22: boolean
  readonly scenarios: readonly Scenario[]
  /** Writes the agent's config into the fresh HOME. */
  setup(ctx: AgentContext): void
  env(ctx: AgentContext): NodeJS.ProcessEnv
  /** The agent's own data directory, given to `sessiontape list`. */
  dataDir(home: string): string
  /** Every session file the agent wrote under its home. */
  sessionFiles(home: string): string[]
  cumulative?(files: readonly string[], where: CumulativeContext): Promise<Cumulative | undefined>
}

/** The prompts every agent gets; the markers in brackets tell the server what to answer (server/reply.ts). */
export const PROMPTS = {
  simple: 'CONF-SIMPLE: Say hello in one sentence.',
  tool: 'CONF-TOOL: List the files in this directory. [[tool]]',
  resume: 'CONF-RESUME: Now summarize notes.txt in one line.',
  killed: 'CONF-KILLED: Write a long story. [[stall]]',
  subagent: 'CONF-SUBAGENT: Use a subagent to list the files in this directory. [[subagent]]',
} as const

/** How an agent CLI is called for each of the four scenarios: `(prompt) => its arguments`. */
export interface ScenarioCommands {
  readonly run: (prompt: string) => readonly string[]
  /** The first step of `tool-resume`, when it needs more than `run` (tools to allow). */
  readonly tool?: (prompt: string) => readonly string[]
  /** The follow-up of `tool-resume`, continuing the session the first step made. */
  readonly resume: (prompt: string) => readonly string[]
  /** The subagent scenario's command, when it needs more than `run` (tools to allow). */
  readonly subagent?: (prompt: string) => readonly string[]
  /** Scenarios in which the server sends Anthropic's `request-id` header. @default none */
  readonly withRequestId?: readonly ScenarioLabel[]
}

/** The four scenarios every agent runs, from how it is called: one table, the same prompts for all. */
export function scenariosOf(commands: ScenarioCommands): Scenario[] {
  const { run, tool = run, resume, subagent = run, withRequestId = [] } = commands
  const scenario = (label: ScenarioLabel, steps: Step[], prompts: string[]): Scenario => ({
    label,
    requestId: withRequestId.includes(label),
    steps,
    prompts,
  })
  return [
    scenario('simple', [{ args: run(PROMPTS.simple) }], ['CONF-SIMPLE']),
    scenario(
      'tool-resume',
      [{ args: tool(PROMPTS.tool) }, { args: resume(PROMPTS.resume) }],
      ['CONF-TOOL', 'CONF-RESUME'],
    ),
    scenario('killed', [{ args: run(PROMPTS.killed), kill: 'on-stall' }], ['CONF-KILLED']),
    scenario('subagent', [{ args: subagent(PROMPTS.subagent) }], ['CONF-SUBAGENT']),
  ]
}
