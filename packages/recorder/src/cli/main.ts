import { runCli } from './run-cli.js'

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
