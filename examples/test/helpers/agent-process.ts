/**
 * Runs the example agent as a real child process, the way a user's shell would: live TypeScript through
 * tsx and the source condition, no build needed.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { Readable } from 'node:stream'
import { fileURLToPath } from 'node:url'

export const examplesDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
export const agentEntry = join(examplesDir, 'agent', 'main.ts')
export const nodeArgs = ['--conditions=@sessiontape/source', '--import', 'tsx'] as const

export interface Finished {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
  readonly stderr: string
}

export type AgentChild = ChildProcessByStdio<null, Readable, Readable>

/** Starts the agent with `args`; stdout and stderr are piped and collected. */
export function startAgent(args: readonly string[], entry: string = agentEntry): AgentRun {
  const child = spawn(process.execPath, [...nodeArgs, entry, ...args], {
    cwd: examplesDir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_OPTIONS: '', INIT_CWD: examplesDir },
  })
  return new AgentRun(child)
}

export class AgentRun {
  readonly child: AgentChild
  stdout = ''
  stderr = ''
  readonly finished: Promise<Finished>

  constructor(child: AgentChild) {
    this.child = child
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (this.stdout += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (this.stderr += chunk))
    this.finished = new Promise((resolve, reject) => {
      child.once('error', reject)
      child.once('close', (code, signal) =>
        resolve({ code, signal, stdout: this.stdout, stderr: this.stderr }),
      )
    })
  }

  /** Resolves once stdout holds at least `lines` complete lines (the agent's `--print` output). */
  async stdoutLines(lines: number): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      const check = (): void => {
        if (this.stdout.split('\n').length - 1 >= lines) {
          this.child.stdout.off('data', check)
          resolve()
        }
      }
      this.child.stdout.on('data', check)
      this.child.once('close', () =>
        reject(new Error(`agent exited before printing ${lines} lines:\n${this.stdout}\n${this.stderr}`)),
      )
      check()
    })
  }
}

/** Runs the agent to completion. */
export async function runAgent(args: readonly string[], entry?: string): Promise<Finished> {
  return startAgent(args, entry).finished
}

/** A fresh directory for one test, removed afterwards by the returned cleanup. */
export async function scratchDir(prefix: string): Promise<{ path: string; remove: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), `sessiontape-e2e-${prefix}-`))
  return { path, remove: () => rm(path, { recursive: true, force: true }) }
}
