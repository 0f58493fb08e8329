// Misuse throws a TypeError at the call, with one message template, before anything is registered.
import { describe, expect, it } from 'vitest'
import { createShutdown, type Shutdown } from '../src/index.js'
import { fakes } from './helpers/fake-process.js'

const make = (): Shutdown => createShutdown(fakes())

type Case = readonly [title: string, call: () => unknown, message: RegExp]

const cases: readonly Case[] = [
  [
    'createShutdown({ timeoutMs: -1 })',
    () => createShutdown({ timeoutMs: -1 }),
    /`timeoutMs`.*`-1` \(number\)/,
  ],
  [
    'createShutdown({ timeoutMs: NaN })',
    () => createShutdown({ timeoutMs: Number.NaN }),
    /`timeoutMs`.*`NaN`/,
  ],
  [
    'createShutdown({ cleanupTimeoutMs: 0 })',
    () => createShutdown({ cleanupTimeoutMs: 0 }),
    /`cleanupTimeoutMs`/,
  ],
  ['createShutdown({ timeoutMs: Infinity })', () => createShutdown({ timeoutMs: Infinity }), /`timeoutMs`/],
  [
    'createShutdown({ drainTimeoutMs: -5 })',
    () => createShutdown({ drainTimeoutMs: -5 }),
    /`drainTimeoutMs`/,
  ],
  [
    "createShutdown({ onReport: 'x' })",
    () => createShutdown({ onReport: 'x' as never }),
    /`onReport` to be a function/,
  ],
  [
    'registerCleanup(non-function)',
    () => make().registerCleanup('close' as never),
    /`fn` to be a function, got `close` \(string\)/,
  ],
  [
    'registerCleanup(fn, { timeoutMs: NaN })',
    () => make().registerCleanup(() => {}, { timeoutMs: Number.NaN }),
    /`timeoutMs`/,
  ],
  [
    "registerCleanup(fn, { phase: 'end' })",
    () => make().registerCleanup(() => {}, { phase: 'end' as never }),
    /`phase` to be one of 'first', 'normal', 'last'/,
  ],
  ["registerCleanup(fn, { name: '' })", () => make().registerCleanup(() => {}, { name: '' }), /`name`/],
  [
    'registerCleanup(fn, { sync: 1 })',
    () => make().registerCleanup(() => {}, { sync: 1 as never }),
    /`sync`/,
  ],
  ['runExitCleanup({ timeoutMs: -1 })', () => void make().runExitCleanup({ timeoutMs: -1 }), /`timeoutMs`/],
  ['gracefulExit(256)', () => void make().gracefulExit(256), /`code` to be an integer exit code/],
  ['gracefulExit(1.5)', () => void make().gracefulExit(1.5), /`code`/],
  [
    "installSignalHandlers({ signals: ['SIGKILL'] })",
    () => make().installSignalHandlers({ signals: ['SIGKILL' as never] }),
    /`signals\[0\]` to be one of 'SIGINT'/,
  ],
  [
    'installSignalHandlers({ signals: [] })',
    () => make().installSignalHandlers({ signals: [] }),
    /`signals`/,
  ],
  [
    'installSignalHandlers({ duplicateWindowMs: -1 })',
    () => make().installSignalHandlers({ duplicateWindowMs: -1 }),
    /`duplicateWindowMs`/,
  ],
  [
    "installSignalHandlers({ secondSignal: 'exit' })",
    () => make().installSignalHandlers({ secondSignal: 'exit' as never }),
    /`secondSignal`/,
  ],
  ["triggerShutdown('SIGUSR1')", () => make().triggerShutdown('SIGUSR1' as never), /`signal`/],
  [
    'guardEpipe(stream, { exitCode: -1 })',
    () => make().guardEpipe(fakes().stdout, { exitCode: -1 }),
    /`exitCode`/,
  ],
  [
    'guardEpipe(null)',
    () => make().guardEpipe(null as never),
    /`stream` to be a writable stream, got `null` \(null\)/,
  ],
  [
    'installFatalHandlers({ onFatal: 1 })',
    () => make().installFatalHandlers({ onFatal: 1 as never }),
    /`onFatal`/,
  ],
]

describe.for(cases)('%s', ([, call, message]) => {
  it('throws a TypeError synchronously', () => {
    expect(call).toThrow(TypeError)
    expect(call).toThrow(message)
  })
})

describe('a rejected registration', () => {
  it('leaves nothing registered', async () => {
    const shutdown = make()
    expect(() => shutdown.registerCleanup(() => {}, { phase: 'end' as never })).toThrow(TypeError)
    expect((await shutdown.runExitCleanup()).cleanups).toEqual([])
  })
})
