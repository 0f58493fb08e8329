/**
 * The example agent: a scripted coding agent that records every event with @sessiontape/recorder,
 * resolves every tool path through @sessiontape/fs-cache, and exits through @sessiontape/shutdown —
 * so Ctrl-C, SIGTERM, `agent --print | head -1` and a hung cleanup all still leave a complete transcript.
 */
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { createPathCache } from '@sessiontape/fs-cache'
import { createRecorder, SessionLockedError } from '@sessiontape/recorder'
import { createShutdown, handleExit } from '@sessiontape/shutdown'
import { parseFlags, USAGE, UsageError, type AgentFlags } from './flags.js'
import { createRandom, scriptedTurn } from './script.js'
import { describeReport, printSummary } from './summary.js'
import { Tools } from './tools.js'
import { ensureSampleWorkspace } from './workspace.js'

/** Exit code when another live process is recording the same session (sysexits EX_TEMPFAIL: retry later). */
const EXIT_SESSION_LOCKED = 75
const EXIT_USAGE = 2

/**
 * Parses the flags, or answers --help / a usage error itself and returns undefined. It sets
 * `process.exitCode` instead of calling `process.exit()`, which could cut off the text still queued for a
 * piped stdout — the very bug this project exists to avoid.
 */
function flagsOrAnswer(): AgentFlags | undefined {
  try {
    const parsed = parseFlags(process.argv.slice(2), process.env['INIT_CWD'] ?? process.cwd())
    if (!parsed.help) return parsed
    process.stdout.write(`${USAGE}\n`)
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    process.stderr.write(`agent: ${error.message}\n\n${USAGE}\n`)
    process.exitCode = EXIT_USAGE
  }
  return undefined
}

const parsedFlags = flagsOrAnswer()
// Not a top-level await: the agent must also bundle to CommonJS (esbuild --format=cjs, webpack), which has
// none. A failure is an unhandled rejection: the fatal handlers installed below report it and still flush.
if (parsedFlags !== undefined) void runAgent(parsedFlags)

async function runAgent(flags: AgentFlags): Promise<void> {
  const workspace = flags.workspace ?? join(flags.dir, '..', 'workspace')
  if (flags.workspace === undefined) await ensureSampleWorkspace(workspace)

  const cache = createPathCache()
  const tools = new Tools(workspace, cache)
  const recorder = createRecorder({
    dir: flags.dir,
    ...(flags.sessionId === undefined ? {} : { sessionId: flags.sessionId }),
    resume: flags.resume,
    onError(error) {
      // A session held by another process is answered once, below, where ready() rejects.
      if (!(error instanceof SessionLockedError))
        process.stderr.write(`agent: transcript: ${error.message}\n`)
    },
  })

  // The exit wiring in one call: SIGINT/SIGTERM/SIGHUP and a fatal error run the cleanups (then the process
  // ends by that signal, or exits 1), a reader that goes away (`agent --print | head -1`) is a normal ending
  // (stdout and stderr are guarded against EPIPE), the report goes to our handler, and the transcript is
  // flushed and closed in the `last` phase — after the agent loop below has stopped recording — with
  // `flushSync()` as its synchronous variant if some library calls process.exit() directly. Our own
  // instance, so the whole shutdown is bounded by --exit-timeout-ms.
  const shutdown = createShutdown({ timeoutMs: flags.exitTimeoutMs })
  const unwireExit = handleExit({
    shutdown,
    recorders: [recorder],
    onReport(report) {
      const text = describeReport(flags, report, recorder)
      if (text !== undefined) process.stderr.write(text)
    },
  })

  let stopRequested = false
  let loopDone: Promise<void> = Promise.resolve()
  shutdown.registerCleanup(
    async () => {
      stopRequested = true
      await loopDone
    },
    { name: 'agent-loop' },
  )
  if (flags.hangCleanup) {
    // Like an exporter waiting on a socket that never answers: it never settles, and its open handle keeps
    // the process alive. Its own timeout cuts it off at 1 s, and the cleanups after it still run.
    shutdown.registerCleanup(
      () =>
        new Promise<never>(() => {
          setInterval(() => {}, 60_000)
        }),
      { name: 'hung-exporter', timeoutMs: 1000 },
    )
  }

  try {
    await recorder.ready()
  } catch (error) {
    if (!(error instanceof SessionLockedError)) throw error
    process.stderr.write(
      `agent: session ${recorder.sessionId} is being recorded by another live process; ` +
        `wait for it to finish, or start a new session\n`,
    )
    // The session is someone else's: nothing of ours to flush, and closing would only report the lock
    // again. The undo takes the whole wiring back (this exit needs none of it).
    unwireExit()
    await shutdown.gracefulExit(EXIT_SESSION_LOCKED)
    return
  }

  let seq = 0
  function record(type: string, data: Record<string, unknown>): string {
    // The object recorded is built here and never touched again, so a tool result (a file read, a command's
    // output: the big ones) is handed over — serialized after the call, in ~1 ms slices, never stalling
    // the loop. The other records are small: serialized at once, as a snapshot.
    const uuid = recorder.record(type, { seq: seq++, ...data }, { handOver: type === 'tool_result' })
    if (flags.print) process.stdout.write(`${JSON.stringify({ uuid, type, ...data })}\n`)
    return uuid
  }

  async function runTurns(): Promise<void> {
    const random = createRandom(flags.seed)
    if (!flags.resume) record('title', { title: `Scripted session (seed ${flags.seed})` })
    record('session_start', { workspace, turns: flags.turns, resumed: flags.resume, pid: process.pid })
    for (let turn = 0; turn < flags.turns && !stopRequested; turn++) {
      const step = scriptedTurn(random, turn, flags.padBytes)
      const events: Array<() => Promise<void> | void> = [
        () => void record('user', { text: step.prompt }),
        () => void record('assistant', { text: step.reply, toolCall: step.call }),
        async () => {
          const result = await tools.run(step.call)
          record('tool_result', { tool: step.call.tool, ...result })
        },
        () => void record('assistant', { text: step.wrapUp }),
      ]
      for (const event of events) {
        if (stopRequested) return
        await event()
        if (flags.delayMs > 0) await sleep(flags.delayMs)
      }
    }
    if (!stopRequested) record('session_end', { turns: flags.turns, pathCache: cache.stats() })
  }

  loopDone = runTurns()
  await loopDone
  if (!stopRequested) {
    const watermark = await recorder.flush()
    printSummary(flags, { recorder, watermark, cache, workspace })
  }
  await shutdown.gracefulExit(0)
}
