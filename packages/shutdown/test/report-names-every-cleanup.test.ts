// Every pass produces a report naming each cleanup with its status and duration. onReport receives it
// once, synchronously, before the drain and the exit; without a hook, problems go to stderr.
import { describe, expect, it } from 'vitest'
import { createShutdown, formatReport, type ShutdownReport } from '../src/index.js'
import { fakes } from './helpers/fake-process.js'

describe('the report', () => {
  it('has the reason, exit code, duration and one entry per cleanup', async () => {
    const parts = fakes()
    const reports: ShutdownReport[] = []
    const shutdown = createShutdown({ ...parts, onReport: (report) => reports.push(report) })
    shutdown.registerCleanup(() => {}, { name: 'ok-one' })
    shutdown.registerCleanup(() => Promise.reject(new Error('nope')), { name: 'failing' })
    const returned = await shutdown.gracefulExit(2)
    expect(reports).toHaveLength(1)
    expect(reports[0]).toBe(returned)
    expect(returned).toMatchObject({
      reason: { type: 'exit', code: 2 },
      exitCode: 2,
      deadlineExceeded: false,
      forced: false,
      laterReasons: [],
      cleanups: [
        { name: 'failing', phase: 'normal', status: 'failed', error: new Error('nope') },
        { name: 'ok-one', phase: 'normal', status: 'ok' },
      ],
    })
    expect(returned.durationMs).toBeGreaterThanOrEqual(0)
    for (const cleanup of returned.cleanups) expect(cleanup.durationMs).toBeGreaterThanOrEqual(0)
  })

  it('onReport runs before the exit, and what it writes to stdout is drained, not lost', async () => {
    const parts = fakes()
    const order: string[] = []
    const shutdown = createShutdown({
      ...parts,
      onReport: (report) => {
        order.push(`report(exits so far: ${parts.process.exits.length})`)
        parts.stdout.write(formatReport(report))
      },
    })
    parts.process.on('exit', () => order.push('exit'))
    await shutdown.gracefulExit(0)
    expect(order).toEqual(['report(exits so far: 0)', 'exit'])
    expect(parts.stdout.text).toBe('shutdown after exit(0): exit 0, cleanups took 0 ms\n')
  })

  it('an onReport that throws does not prevent the exit, and its error is written to stderr', async () => {
    const parts = fakes()
    const shutdown = createShutdown({
      ...parts,
      onReport: () => {
        throw new Error('printer jammed')
      },
    })
    await shutdown.gracefulExit(0)
    expect(parts.process.exits).toEqual([0])
    expect(parts.stderr.text).toContain('onReport threw: Error: printer jammed')
  })

  it('without onReport: silent when all went well, formatReport on stderr when something did not', async () => {
    const calm = fakes()
    const calmShutdown = createShutdown(calm)
    calmShutdown.registerCleanup(() => {}, { name: 'fine' })
    await calmShutdown.gracefulExit(0)
    expect(calm.stderr.text).toBe('')

    const rough = fakes()
    const roughShutdown = createShutdown(rough)
    roughShutdown.registerCleanup(() => new Promise(() => {}), { name: 'stuck', timeoutMs: 20 })
    roughShutdown.registerCleanup(() => {}, { name: 'fine' })
    const report = await roughShutdown.gracefulExit(0)
    expect(rough.stderr.text).toBe(formatReport(report))
    expect(rough.stderr.text).toMatch(
      /^ {2}timed-out {4}stuck +\d+ ms {2}CleanupTimeoutError: Cleanup "stuck" did not settle within its 20 ms timeout$/m,
    )
  })

  it('setReportHandler replaces the hook; undefined restores the default', async () => {
    const parts = fakes()
    const shutdown = createShutdown({ ...parts, onReport: () => parts.stdout.write('first\n') })
    shutdown.setReportHandler((report) => parts.stdout.write(`second ${report.exitCode}\n`))
    await shutdown.gracefulExit(6)
    expect(parts.stdout.text).toBe('second 6\n')
  })
})

describe('formatReport', () => {
  it('renders one line per cleanup with status, name, duration and error, then later reasons', () => {
    const text = formatReport({
      reason: { type: 'signal', signal: 'SIGINT' },
      exitCode: 130,
      durationMs: 2004.4,
      deadlineExceeded: true,
      forced: false,
      laterReasons: [{ type: 'fatal', origin: 'uncaughtException', error: new TypeError('late') }],
      cleanups: [
        { name: 'mcp', phase: 'first', status: 'ok', durationMs: 3.2 },
        {
          name: 'telemetry',
          phase: 'normal',
          status: 'timed-out',
          durationMs: 2000.6,
          error: new Error('slow'),
        },
        { name: 'transcript', phase: 'last', status: 'not-started', durationMs: 0 },
      ],
    })
    expect(text).toBe(
      [
        'shutdown after SIGINT: exit 130, cleanups took 2004 ms (deadline exceeded)',
        '  ok           mcp            3 ms',
        '  timed-out    telemetry   2001 ms  Error: slow',
        '  not-started  transcript',
        '  also: uncaughtException: TypeError: late',
        '',
      ].join('\n'),
    )
  })
})
