import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import { checkState, materialize, type SessionUnderTest } from './check-state.js'
import { crashStates, describeTraceOp, stateKey, type Tree } from './crash-model.js'
import type { Trace } from './trace.js'

/** One scenario: the tree it starts from (durable), then the traced part. */
export interface Scenario {
  readonly name: string
  /** Builds the starting tree under `root` with ordinary calls (not traced: it is durable by assumption). */
  readonly setup: (root: string) => Promise<void>
  /** Runs the scenario under `root` and returns its trace, with what it was promised acknowledged in it. */
  readonly traced: (root: string) => Promise<Trace>
  /** The session resumed in every crash state (null: the scenario has no transcript to resume). */
  readonly session: SessionUnderTest | null
}

export interface Violation {
  readonly scenario: string
  readonly state: string
  readonly problems: readonly string[]
}

export interface Exploration {
  readonly scenario: string
  readonly ops: number
  readonly states: number
  readonly unique: number
  readonly violations: readonly Violation[]
  /** The trace, one line per operation, for a reader of a violation. */
  readonly trace: readonly string[]
}

/** A snapshot of the tree under `root` (regular files and directories). */
export function snapshot(root: string): Tree {
  const tree: Tree = new Map()
  const walk = (dir: string, rel: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = rel === '' ? entry.name : `${rel}/${entry.name}`
      const full = path.join(dir, entry.name)
      if (entry.isDirectory()) {
        tree.set(p, { type: 'dir' })
        walk(full, p)
      } else if (entry.isFile()) tree.set(p, { type: 'file', data: fs.readFileSync(full) })
    }
  }
  walk(root, '')
  return tree
}

/**
 * Runs a scenario once on the real file system, tracing it, then checks every distinct crash state of the
 * trace (see crash-model.ts for the rules and the bounds) in a fresh directory of its own.
 */
export async function explore(scenario: Scenario): Promise<Exploration> {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'sessiontape-crash-states-'))
  try {
    const root = path.join(base, 'run')
    fs.mkdirSync(root)
    await scenario.setup(root)
    const initial = snapshot(root)
    const trace = await scenario.traced(root)
    let states = 0
    const seen = new Set<string>()
    const violations: Violation[] = []
    for (const state of crashStates(initial, trace.ops)) {
      states++
      const key = stateKey(state)
      if (seen.has(key)) continue
      seen.add(key)
      const stateRoot = path.join(base, `state-${seen.size}`)
      materialize(state.tree, stateRoot)
      const problems = await checkState(state, stateRoot, scenario.session)
      if (problems.length > 0)
        violations.push({ scenario: scenario.name, state: state.description, problems })
      fs.rmSync(stateRoot, { recursive: true, force: true })
    }
    return {
      scenario: scenario.name,
      ops: trace.ops.length,
      states,
      unique: seen.size,
      violations,
      trace: trace.ops.map((op, i) => `${i + 1}. ${describeTraceOp(op)}`),
    }
  } finally {
    fs.rmSync(base, { recursive: true, force: true })
  }
}

/** The report: one line per scenario, then every violation with its scenario, state and trace. */
export function report(explorations: readonly Exploration[], traces = false): string {
  const lines: string[] = []
  let states = 0
  let unique = 0
  let violations = 0
  for (const e of explorations) {
    states += e.states
    unique += e.unique
    violations += e.violations.length
    lines.push(
      `${e.scenario}: ${e.ops} operations, ${e.states} crash states (${e.unique} distinct, all checked), ${e.violations.length} violation(s)`,
    )
  }
  lines.push(`total: ${states} crash states (${unique} distinct) explored, ${violations} violation(s)`)
  for (const e of explorations) {
    if (e.violations.length === 0 && !traces) continue
    lines.push('', `scenario ${e.scenario}, trace:`, ...e.trace.map((line) => `  ${line}`))
    for (const v of e.violations)
      lines.push(`  VIOLATION in state: ${v.state}`, ...v.problems.map((p) => `    - ${p}`))
  }
  return lines.join('\n')
}
