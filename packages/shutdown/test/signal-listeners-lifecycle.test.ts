// Signal listeners exist only between installSignalHandlers() and the exit (or the uninstaller), so Node's
// default behaviour comes back afterwards; Windows adds SIGBREAK and caps a console-close shutdown.
import { describe, expect, it } from 'vitest'
import { createShutdown, type CleanupContext } from '../src/index.js'
import { fakes } from './helpers/fake-process.js'

describe('signal listeners', () => {
  it('are installed by installSignalHandlers(), one per signal, and removed by its uninstaller', () => {
    const parts = fakes()
    const shutdown = createShutdown(parts)
    expect(parts.process.counts()).toMatchObject({ SIGINT: 0, SIGTERM: 0, SIGHUP: 0, SIGBREAK: 0 })
    const uninstall = shutdown.installSignalHandlers()
    expect(parts.process.counts()).toMatchObject({ SIGINT: 1, SIGTERM: 1, SIGHUP: 1, SIGBREAK: 0 })
    uninstall()
    expect(parts.process.counts()).toMatchObject({ SIGINT: 0, SIGTERM: 0, SIGHUP: 0 })
  })

  it('installing again replaces the earlier set (never two listeners for one signal)', () => {
    const parts = fakes()
    const shutdown = createShutdown(parts)
    shutdown.installSignalHandlers()
    shutdown.installSignalHandlers({ signals: ['SIGTERM', 'SIGTERM'] })
    expect(parts.process.counts()).toMatchObject({ SIGINT: 0, SIGTERM: 1, SIGHUP: 0 })
  })

  it('are removed once the shutdown exits', async () => {
    const parts = fakes()
    const shutdown = createShutdown({ ...parts, onReport: () => {} })
    shutdown.installSignalHandlers()
    parts.process.emit('SIGTERM', 'SIGTERM')
    await shutdown.gracefulExit()
    expect(parts.process.exits).toEqual([143])
    expect(parts.process.counts()).toMatchObject({ SIGINT: 0, SIGTERM: 0, SIGHUP: 0 })
  })

  it('on Windows include SIGBREAK (Ctrl-Break) by default', () => {
    const parts = fakes('win32')
    createShutdown(parts).installSignalHandlers()
    expect(parts.process.counts()).toMatchObject({ SIGINT: 1, SIGTERM: 1, SIGHUP: 1, SIGBREAK: 1 })
  })

  it('on Windows a SIGHUP (console closed) caps the deadline at 8 s, below the ~10 s hard kill', async () => {
    const budgets: Record<string, number> = {}
    for (const platform of ['win32', 'linux']) {
      const parts = fakes(platform)
      const shutdown = createShutdown({
        ...parts,
        timeoutMs: 30_000,
        cleanupTimeoutMs: 30_000,
        onReport: () => {},
      })
      shutdown.registerCleanup((context: CleanupContext) => {
        budgets[platform] = context.timeoutMs
      })
      shutdown.installSignalHandlers()
      parts.process.emit('SIGHUP', 'SIGHUP')
      await shutdown.gracefulExit()
      expect(parts.process.exits).toEqual([129])
    }
    expect(budgets.win32).toBeLessThanOrEqual(8000)
    expect(budgets.linux).toBeGreaterThan(8000)
  })
})
