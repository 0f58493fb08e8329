// Cleanups run one at a time, phase by phase ('first', 'normal', 'last'), last-registered first within a
// phase; cleanups registered during the pass still run; an unregistered one does not.
import { describe, expect, it } from 'vitest'
import { createShutdown, type CleanupPhase } from '../src/index.js'
import { fakes } from './helpers/fake-process.js'

describe('cleanup order', () => {
  it('reverse registration order within a phase, phases first → normal → last', async () => {
    const shutdown = createShutdown(fakes())
    const ran: string[] = []
    const register = (name: string, phase?: CleanupPhase): void => {
      shutdown.registerCleanup(() => void ran.push(name), { name, ...(phase && { phase }) })
    }
    register('transcript', 'last')
    register('db')
    register('telemetry', 'last')
    register('ui', 'first')
    register('mcp', 'normal')
    const report = await shutdown.runExitCleanup()
    expect(ran).toEqual(['ui', 'mcp', 'db', 'telemetry', 'transcript'])
    expect(report.cleanups.map((c) => `${c.phase}:${c.name}`)).toEqual([
      'first:ui',
      'normal:mcp',
      'normal:db',
      'last:telemetry',
      'last:transcript',
    ])
  })

  it('one at a time: a cleanup starts only after the previous one settled', async () => {
    const shutdown = createShutdown(fakes())
    const events: string[] = []
    for (const name of ['b', 'a']) {
      shutdown.registerCleanup(
        async () => {
          events.push(`${name}:start`)
          await new Promise((resolve) => setTimeout(resolve, 20))
          events.push(`${name}:end`)
        },
        { name },
      )
    }
    await shutdown.runExitCleanup()
    expect(events).toEqual(['a:start', 'a:end', 'b:start', 'b:end'])
  })

  it('registrations made during the pass run in the same pass (in an earlier phase: next)', async () => {
    const shutdown = createShutdown(fakes())
    const ran: string[] = []
    shutdown.registerCleanup(() => void ran.push('transcript'), { name: 'transcript', phase: 'last' })
    shutdown.registerCleanup(
      () => {
        ran.push('spawner')
        shutdown.registerCleanup(() => void ran.push('late-normal'), { name: 'late-normal' })
        shutdown.registerCleanup(() => void ran.push('late-first'), { name: 'late-first', phase: 'first' })
      },
      { name: 'spawner' },
    )
    const report = await shutdown.runExitCleanup()
    expect(ran).toEqual(['spawner', 'late-first', 'late-normal', 'transcript'])
    expect(report.cleanups.map((c) => c.name)).toEqual(['spawner', 'late-first', 'late-normal', 'transcript'])
  })

  it('the function registerCleanup returns unregisters (idempotently)', async () => {
    const shutdown = createShutdown(fakes())
    const ran: string[] = []
    shutdown.registerCleanup(() => void ran.push('kept'), { name: 'kept' })
    const off = shutdown.registerCleanup(() => void ran.push('removed'), { name: 'removed' })
    off()
    off()
    const report = await shutdown.runExitCleanup()
    expect(ran).toEqual(['kept'])
    expect(report.cleanups.map((c) => c.name)).toEqual(['kept'])
  })

  it('names an anonymous cleanup after the function, or cleanup-<n>', async () => {
    const shutdown = createShutdown(fakes())
    shutdown.registerCleanup(function closeSockets() {})
    shutdown.registerCleanup(() => {})
    const report = await shutdown.runExitCleanup()
    expect(report.cleanups.map((c) => c.name)).toEqual(['cleanup-2', 'closeSockets'])
  })
})
