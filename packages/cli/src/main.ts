import { once } from 'node:events'
import { constants } from 'node:os'
import { runCli } from './run-cli.js'
import { outputColumns } from './commands/tail-columns.js'
import { colorStyle, plainStyle, wantsColor } from './style.js'

// The `sessiontape` executable. Everything testable lives in runCli; this file only wires the process.

/** The signals that ask a command to stop: Ctrl-C, `kill`/`timeout`, a closed terminal. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const
type StopSignal = (typeof STOP_SIGNALS)[number]
/**
 * How long an interrupted command may take to stop at its next signal check. A command stuck in I/O that
 * never returns (a hung network mount) must not keep an interrupted process alive: past this, it ends anyway.
 */
const STOP_BOUND_MS = 2_000

const controller = new AbortController()
const commandName = process.argv[2] ?? ''
let stdoutClosed = false
let interrupted: StopSignal | undefined
let finished = false
let ending = false

// `sessiontape show big.jsonl | head` closes the pipe early: that is a normal ending, not a crash.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') {
    stdoutClosed = true
    controller.abort()
    return
  }
  process.exitCode = 2
})

function onStopSignal(signal: StopSignal): void {
  if (interrupted !== undefined) return
  interrupted = signal
  controller.abort()
  if (finished) endBySignal(signal)
  // Not unref()ed: this timer is what ends a command that does not stop by itself.
  else setTimeout(() => endBySignal(signal), STOP_BOUND_MS)
}
for (const signal of STOP_SIGNALS) process.on(signal, onStopSignal)

/**
 * An interrupted command never ends as a success: `timeout 60 sessiontape verify f && ship f` must not ship
 * an unchecked file. It says so, then dies by the same signal (a shell shows 128+n and stops a script);
 * where the signal does not end the process (it is ignored), the exit code is 128+n.
 */
function endBySignal(signal: StopSignal): void {
  if (ending) return
  ending = true
  const name = commandName === '' ? 'sessiontape' : `sessiontape ${commandName}`
  process.exitCode = 128 + constants.signals[signal]
  process.stderr.write(`${name}: interrupted by ${signal}\n`, () => {
    for (const each of STOP_SIGNALS) process.removeListener(each, onStopSignal)
    process.kill(process.pid, signal)
  })
}

runCli(process.argv.slice(2), {
  out: (text) => {
    if (!stdoutClosed) process.stdout.write(text)
  },
  err: (text) => process.stderr.write(text),
  signal: controller.signal,
  style: wantsColor(process.env, process.stdout.isTTY === true) ? colorStyle : plainStyle,
  columns: () => outputColumns(process.stdout, process.env),
  // A pipe to a slow reader buffers writes in memory: wait for it before producing more.
  drain: async () => {
    if (stdoutClosed || !process.stdout.writableNeedDrain) return
    await once(process.stdout, 'drain', { signal: controller.signal }).catch(() => {
      // Aborted (Ctrl-C, or the pipe closed): the command stops at its next signal check.
    })
  },
})
  .then(
    (code) => {
      process.exitCode = code
    },
    (error: unknown) => {
      process.stderr.write(
        `sessiontape: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      )
      process.exitCode = 2
    },
  )
  .finally(() => {
    finished = true
    if (interrupted !== undefined) endBySignal(interrupted)
  })
