import { spawn } from 'node:child_process'

/**
 * Runs one agent command in its own process group, bounded in time: at the bound (or when `killWhen`
 * resolves: a stall has started) the whole group gets SIGKILL, and it gets it again once the command ended,
 * so no helper an agent left behind (a shell, a language server, a background child) outlives its run.
 */

export interface AgentRun {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
  readonly stderr: string
  readonly timedOut: boolean
  readonly killed: boolean
  readonly ms: number
}

export interface RunOptions {
  readonly cwd: string
  readonly env: NodeJS.ProcessEnv
  readonly timeoutMs: number
  /** Kill the group when this resolves (plus `killDelayMs`, so the agent has written what it writes). */
  readonly killWhen?: Promise<void>
  readonly killDelayMs?: number
}

/** Output kept per stream: enough to show why a run failed, bounded so a chatty agent cannot fill memory. */
const OUTPUT_CAP = 64 * 1024

/** Process groups of agents still running, so a suite that is interrupted or crashes leaves none behind. */
const live = new Set<number>()

/** Kills every agent group still running (synchronous: safe in an 'exit' listener). */
export function killAllAgents(): void {
  for (const pid of live) killGroup(pid)
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return
  try {
    process.kill(-pid, 'SIGKILL')
  } catch {
    // The group is gone already: nothing left to end.
  }
}

export async function runAgent(
  command: string,
  args: readonly string[],
  options: RunOptions,
): Promise<AgentRun> {
  const started = Date.now()
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  if (child.pid !== undefined) live.add(child.pid)
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    if (stdout.length < OUTPUT_CAP) stdout += d
  })
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    if (stderr.length < OUTPUT_CAP) stderr += d
  })
  const closed = new Promise<void>((resolve) => {
    child.once('close', () => resolve())
    child.once('error', () => resolve())
  })
  let timedOut = false
  let killed = false
  const timer = setTimeout(() => {
    timedOut = true
    killGroup(child.pid)
  }, options.timeoutMs)
  let killTimer: NodeJS.Timeout | undefined
  options.killWhen?.then(
    () => {
      killTimer = setTimeout(() => {
        killed = true
        killGroup(child.pid)
      }, options.killDelayMs ?? 1_000)
    },
    () => {
      // Never rejects (the server only resolves it); nothing to do.
    },
  )
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => {
    // 'exit', not 'close': a helper the agent left running may hold its stdout open; the group kill below
    // ends it, and 'close' follows.
    child.on('exit', (c, s) => {
      killGroup(child.pid)
      resolve([c, s])
    })
    child.on('error', (error) => {
      stderr += `spawn failed: ${error.message}\n`
      resolve([null, null])
    })
  })
  clearTimeout(timer)
  if (killTimer !== undefined) clearTimeout(killTimer)
  killGroup(child.pid)
  await closed
  if (child.pid !== undefined) live.delete(child.pid)
  return { code, signal, stdout, stderr, timedOut, killed, ms: Date.now() - started }
}
