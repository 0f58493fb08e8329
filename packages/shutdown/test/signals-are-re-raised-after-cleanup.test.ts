// Each handled signal runs the cleanups, reports, and exits with 128 + the signal's number, through the
// module-level functions exactly as an agent would use them.
import { describe, expect, it } from 'vitest'
import { spawnAgent, withTempDir } from './helpers/spawn-fixture.js'

describe.for([
  ['SIGINT', 130],
  ['SIGTERM', 143],
  ['SIGHUP', 129],
] as const)('%s', ([signal, expected]) => {
  it(`runs every cleanup, reports the signal, exits ${expected}`, async () => {
    await withTempDir(async (dir) => {
      const fixture = spawnAgent(dir, {
        FIXTURE_SIGNALS: '{}',
        FIXTURE_CLEANUPS: JSON.stringify([
          { name: 'transcript', kind: 'slow', ms: 50, phase: 'last' },
          { name: 'mcp', kind: 'ok' },
        ]),
      })
      await fixture.ready
      fixture.child.kill(signal)
      expect(await fixture.exit).toEqual({ code: expected, signal: null })
      expect(await fixture.lines()).toEqual(['mcp:start', 'mcp:done', 'transcript:start', 'transcript:done'])
      const json = await fixture.report()
      expect(json.reason).toEqual({ type: 'signal', signal })
      expect(json.exitCode).toBe(expected)
      expect(json.cleanups.map((c) => [c.name, c.status])).toEqual([
        ['mcp', 'ok'],
        ['transcript', 'ok'],
      ])
    })
  })
})

describe('without installSignalHandlers()', () => {
  it("leaves SIGINT to Node's default: the process dies by the signal and no cleanup runs", async () => {
    await withTempDir(async (dir) => {
      const fixture = spawnAgent(dir, { FIXTURE_CLEANUPS: JSON.stringify([{ name: 'a', kind: 'ok' }]) })
      await fixture.ready
      fixture.child.kill('SIGINT')
      expect(await fixture.exit).toEqual({ code: null, signal: 'SIGINT' })
      expect(await fixture.lines()).toEqual([])
    })
  })
})
