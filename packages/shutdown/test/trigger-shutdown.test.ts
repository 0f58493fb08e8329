// A terminal UI in raw mode gets Ctrl-C as a keypress, not as SIGINT: triggerShutdown(signal) stands in
// for the signal with the same rules (exit code, de-duplication, a second trigger forces the exit).
import { describe, expect, it } from 'vitest'
import { createShutdown } from '../src/index.js'
import { fakes } from './helpers/fake-process.js'

const hang = (): Promise<never> => new Promise(() => {})

describe('triggerShutdown', () => {
  it('starts a graceful exit with the code of the signal it stands for', async () => {
    for (const [signal, code] of [
      ['SIGINT', 130],
      ['SIGTERM', 143],
      ['SIGHUP', 129],
      ['SIGBREAK', 149],
    ] as const) {
      const parts = fakes()
      const shutdown = createShutdown({ ...parts, onReport: () => {} })
      let reason: unknown
      shutdown.registerCleanup((context) => {
        reason = context.reason
      })
      shutdown.triggerShutdown(signal)
      expect(parts.process.exitCode).toBe(code)
      await shutdown.gracefulExit()
      expect(parts.process.exits).toEqual([code])
      expect(reason).toEqual({ type: 'signal', signal })
    }
  })

  it('defaults to SIGINT, ignores a repeat within the window and forces on a later one', async () => {
    const parts = fakes()
    const reports: unknown[] = []
    const shutdown = createShutdown({ ...parts, onReport: (report) => reports.push(report) })
    shutdown.registerCleanup(hang, { name: 'ui', timeoutMs: 60_000 })
    shutdown.triggerShutdown()
    shutdown.triggerShutdown()
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(parts.process.exits).toEqual([])
    await new Promise((resolve) => setTimeout(resolve, 250))
    shutdown.triggerShutdown()
    expect(parts.process.exits).toEqual([130])
    expect(reports).toMatchObject([
      {
        forced: true,
        laterReasons: [{ type: 'signal', signal: 'SIGINT' }],
        cleanups: [{ status: 'timed-out' }],
      },
    ])
  })

  it('a different signal is a genuine second request, even inside the window', () => {
    const parts = fakes()
    const shutdown = createShutdown({ ...parts, onReport: () => {} })
    shutdown.registerCleanup(hang, { timeoutMs: 60_000 })
    shutdown.triggerShutdown('SIGINT')
    shutdown.triggerShutdown('SIGTERM')
    expect(parts.process.exits).toEqual([130])
  })

  it('during a shutdown started by gracefulExit, the first signal is only recorded; the next one forces', async () => {
    const parts = fakes()
    const shutdown = createShutdown({ ...parts, onReport: () => {} })
    shutdown.registerCleanup(hang, { timeoutMs: 60_000 })
    const exiting = shutdown.gracefulExit(0)
    shutdown.triggerShutdown('SIGINT')
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(parts.process.exits).toEqual([])
    shutdown.triggerShutdown('SIGTERM')
    expect(parts.process.exits).toEqual([0])
    const report = await exiting
    expect(report.forced).toBe(true)
    expect(report.laterReasons).toEqual([
      { type: 'signal', signal: 'SIGINT' },
      { type: 'signal', signal: 'SIGTERM' },
    ])
  })
})
