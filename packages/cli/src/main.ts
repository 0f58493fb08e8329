import { once } from 'node:events'
import { runCli } from './run-cli.js'
import { colorStyle, plainStyle, wantsColor } from './style.js'

// The `sessiontape` executable. Everything testable lives in runCli; this file only wires the process.

const controller = new AbortController()
let stdoutClosed = false

// `sessiontape show big.jsonl | head` closes the pipe early: that is a normal ending, not a crash.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') {
    stdoutClosed = true
    controller.abort()
    return
  }
  process.exitCode = 2
})

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => controller.abort())
}

runCli(process.argv.slice(2), {
  out: (text) => {
    if (!stdoutClosed) process.stdout.write(text)
  },
  err: (text) => process.stderr.write(text),
  signal: controller.signal,
  style: wantsColor(process.env, process.stdout.isTTY === true) ? colorStyle : plainStyle,
  // A pipe to a slow reader buffers writes in memory: wait for it before producing more.
  drain: async () => {
    if (stdoutClosed || !process.stdout.writableNeedDrain) return
    await once(process.stdout, 'drain', { signal: controller.signal }).catch(() => {
      // Aborted (Ctrl-C, or the pipe closed): the command stops at its next signal check.
    })
  },
}).then(
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
