import { spawn } from 'node:child_process'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'

import type { ChildEvent, ChildPlan } from './kill-fuzz-protocol.js'

const here = path.dirname(fileURLToPath(import.meta.url))
const CHILD = path.join(here, 'kill-fuzz-child.ts')

/** How one child ran, as the parent saw it. */
export interface ChildRun {
  readonly events: readonly ChildEvent[]
  readonly stdout: string
  readonly stderr: string
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  /** Who sent the SIGKILL that ended it: the parent (on schedule or at the timeout), the child itself, nobody. */
  readonly killedBy: 'parent' | 'self' | null
  /** Milliseconds from the child's `start` line to the parent's kill, when the parent killed it. */
  readonly killAtMs: number | null
  /** The child outlived `timeoutMs` and was killed for it: a hang. */
  readonly timedOut: boolean
  /** Lines that were not JSON: the one a kill cut off mid-write (its promise is not counted), or noise. */
  readonly unparsedLines: number
}

/**
 * Runs one child of the kill fuzz. `killAfterStartMs`: SIGKILL that long after the child printed `start`
 * (just before createRecorder), or null to let it run. Whatever happens, the child is gone when this
 * resolves: nobody writes the transcript while the parent checks it.
 */
export function runChild(
  plan: ChildPlan,
  killAfterStartMs: number | null,
  timeoutMs: number,
): Promise<ChildRun> {
  const child = spawn(
    process.execPath,
    ['--conditions=@sessiontape/source', '--import', 'tsx', CHILD, JSON.stringify(plan)],
    { cwd: path.dirname(here), stdio: ['ignore', 'pipe', 'pipe'] },
  )
  const events: ChildEvent[] = []
  let stdout = ''
  let stderr = ''
  let pending = ''
  let unparsedLines = 0
  let startedAt: number | null = null
  let killedByParent = false
  let killAtMs: number | null = null
  let timedOut = false

  const kill = (): void => {
    if (child.exitCode !== null || child.signalCode !== null) return
    killedByParent = true
    killAtMs = startedAt === null ? null : performance.now() - startedAt
    child.kill('SIGKILL')
  }
  const parse = (line: string): void => {
    if (line === '') return
    let event: ChildEvent
    try {
      event = JSON.parse(line) as ChildEvent
    } catch {
      unparsedLines++
      return
    }
    events.push(event)
    if (event.t === 'start' && startedAt === null) {
      startedAt = performance.now()
      if (killAfterStartMs === null) return
      // setImmediate for "now": a 0 ms timer waits at least a millisecond.
      if (killAfterStartMs < 1) setImmediate(kill)
      else setTimeout(kill, killAfterStartMs)
    }
  }
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk
    pending += chunk
    const lines = pending.split('\n')
    pending = lines.pop()!
    for (const line of lines) parse(line)
  })
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const timer = setTimeout(() => {
    timedOut = true
    kill()
  }, timeoutMs)

  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('close', (code, signal) => {
      clearTimeout(timer)
      // A last line without its newline was cut off by the kill: whatever it promised was never seen whole.
      if (pending !== '') unparsedLines++
      const killedBy = signal !== 'SIGKILL' ? null : killedByParent ? 'parent' : 'self'
      resolve({ events, stdout, stderr, code, signal, killedBy, killAtMs, timedOut, unparsedLines })
    })
  })
}
