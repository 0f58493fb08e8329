// Options nobody reads used to be accepted silently: exit-hook's `wait`, close-with-grace's `delay` and
// typos bounded nothing. Every options bag now rejects an unknown key with a TypeError at the call that
// names the key and the nearest known option, or what a well-known foreign name is called here.
import { describe, expect, it } from 'vitest'
import { createShutdown, type Shutdown } from '../src/index.js'
import { fakes } from './helpers/fake-process.js'

const make = (): Shutdown => createShutdown(fakes())

const cases: readonly (readonly [string, () => unknown, RegExp])[] = [
  [
    'createShutdown({ delay: 500 }) (close-with-grace)',
    () => createShutdown({ delay: 500 } as never),
    /^Unknown option `delay` in createShutdown\(options\): close-with-grace's `delay` is `timeoutMs` here/,
  ],
  [
    'createShutdown({ logger })',
    () => createShutdown({ logger: console } as never),
    /close-with-grace's `logger` is `onReport` here/,
  ],
  [
    'createShutdown({ timeout: 500 }) (a near miss)',
    () => createShutdown({ timeout: 500 } as never),
    /^Unknown option `timeout` in createShutdown\(options\): did you mean `timeoutMs`\?$/,
  ],
  [
    'registerCleanup(fn, { wait: 300 }) (exit-hook)',
    () => make().registerCleanup(() => {}, { wait: 300 } as never),
    /^Unknown option `wait` in registerCleanup\(fn, options\): exit-hook's `wait` is `timeoutMs` here/,
  ],
  [
    'registerCleanup(fn, { alwaysLast: true }) (signal-exit)',
    () => make().registerCleanup(() => {}, { alwaysLast: true } as never),
    /signal-exit's `alwaysLast` is `phase: 'last'` here/,
  ],
  [
    'registerCleanup(fn, { phse: "last" })',
    () => make().registerCleanup(() => {}, { phse: 'last' } as never),
    /did you mean `phase`\?/,
  ],
  [
    'runExitCleanup({ wait: 300 })',
    () => void make().runExitCleanup({ wait: 300 } as never),
    /exit-hook's `wait` is `timeoutMs` here/,
  ],
  [
    'gracefulExit(0, { delay: 500 })',
    () => void make().gracefulExit(0, { delay: 500 } as never),
    /close-with-grace's `delay` is `timeoutMs` here/,
  ],
  [
    'installSignalHandlers({ signal: ["SIGINT"] })',
    () => make().installSignalHandlers({ signal: ['SIGINT'] } as never),
    /did you mean `signals`\?/,
  ],
  [
    'guardEpipe(stream, { code: 141 })',
    () => make().guardEpipe(fakes().stdout, { code: 141 } as never),
    /^Unknown option `code` in guardEpipe\(stream, options\): known options are `exitCode`$/,
  ],
  [
    'installFatalHandlers({ onError })',
    () => make().installFatalHandlers({ onError: () => {} } as never),
    /known options are `onFatal`$/,
  ],
]

describe.for(cases)('%s', ([, call, message]) => {
  it('throws a TypeError synchronously, naming the key', () => {
    expect(call).toThrow(TypeError)
    expect(call).toThrow(message)
  })
})

describe('a rejected option', () => {
  it('leaves nothing registered or installed', async () => {
    const parts = fakes()
    const shutdown = createShutdown(parts)
    expect(() => shutdown.registerCleanup(() => {}, { wait: 1 } as never)).toThrow(TypeError)
    expect(() => shutdown.installSignalHandlers({ signal: ['SIGINT'] } as never)).toThrow(TypeError)
    expect(parts.process.counts()).toMatchObject({ SIGINT: 0, SIGTERM: 0 })
    expect((await shutdown.runExitCleanup()).cleanups).toEqual([])
  })

  it('every documented option is accepted', () => {
    const parts = fakes()
    const shutdown = createShutdown({
      ...parts,
      timeoutMs: 1000,
      cleanupTimeoutMs: 500,
      drainTimeoutMs: 100,
      reraiseSignals: false,
      onReport: () => {},
    })
    expect(() =>
      shutdown.registerCleanup(() => {}, { name: 'a', timeoutMs: 10, phase: 'last', sync: () => {} }),
    ).not.toThrow()
    expect(() =>
      shutdown.installSignalHandlers({ signals: ['SIGINT'], duplicateWindowMs: 0, secondSignal: 'ignore' }),
    ).not.toThrow()
    expect(() => shutdown.guardEpipe(parts.stdout, { exitCode: 141 })).not.toThrow()
    expect(() => shutdown.installFatalHandlers({ onFatal: () => {} })).not.toThrow()
  })
})
