import { expect, it } from 'vitest'

import { explore, report, type Exploration } from './helpers/crash-states/explore.js'
import { SCENARIOS } from './helpers/crash-states/scenarios.js'

// The crash-state explorer (test/helpers/crash-states): each scenario runs once on the real file system
// through the recorder's fs seam, traced; then every state a power cut could leave after any prefix of the
// trace is materialized and checked (records acknowledged by a flush with fsync present exactly once, the
// transcript parses, a resume continues the chain, the lock lets one writer in). A violation prints the
// scenario, its trace and the state.
it(
  'no crash state of any scenario loses an acknowledged record or breaks a resume',
  { timeout: 120_000 },
  async () => {
    const explorations: Exploration[] = []
    for (const scenario of SCENARIOS) explorations.push(await explore(scenario))
    // CRASH_STATES_TRACES=1 prints every scenario's trace, not only those with a violation.
    const text = report(explorations, process.env.CRASH_STATES_TRACES === '1')
    console.log(text)
    expect(explorations.every((e) => e.states > 0)).toBe(true)
    expect(explorations.flatMap((e) => e.violations)).toEqual([])
  },
)
