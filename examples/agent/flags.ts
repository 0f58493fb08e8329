import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'

export const USAGE = `usage: agent [options]

Runs a scripted coding agent (no model, no network) whose tools work on a real directory, recording
every event to a JSONL transcript with @sessiontape/recorder.

  --dir <path>          where transcripts go (default: $TMPDIR/sessiontape-demo/sessions)
  --workspace <path>    the project the tools work on (default: a sample project next to --dir)
  --session <id>        start a new session with this id (default: a random UUID)
  --resume <id>         continue an existing session (repairs a torn tail first)
  --turns <n>           how many user turns to script (default: 4)
  --seed <n>            picks the scripted turns (default: 1)
  --print               stream each record to stdout as JSONL as it is recorded (for piping)
  --json                print the summary and the shutdown report as JSON
  --delay-ms <n>        pause between events, to watch it live or to interrupt it (default: 0)
  --pad-bytes <n>       fatten every assistant reply by n bytes (heavy runs)
  --exit-timeout-ms <n> wall-clock bound on the whole shutdown (default: 5000)
  --hang-cleanup        register one extra cleanup that never settles (to see the bound work)
  -h, --help            this text`

export interface AgentFlags {
  readonly dir: string
  readonly workspace: string | undefined
  readonly sessionId: string | undefined
  readonly resume: boolean
  readonly turns: number
  readonly seed: number
  readonly print: boolean
  readonly json: boolean
  readonly delayMs: number
  readonly padBytes: number
  readonly exitTimeoutMs: number
  readonly hangCleanup: boolean
  readonly help: boolean
}

export class UsageError extends Error {
  override readonly name = 'UsageError'
}

function count(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback
  const value = Number(raw)
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new UsageError(`--${name} expects a whole number >= 0, got ${JSON.stringify(raw)}`)
  }
  return value
}

/**
 * Parses the agent's flags. Relative paths are taken from `cwd`: pnpm runs scripts inside the package
 * folder, so the caller passes the directory the user typed the command in (pnpm's INIT_CWD).
 */
export function parseFlags(argv: readonly string[], cwd: string = process.cwd()): AgentFlags {
  let parsed
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        dir: { type: 'string' },
        workspace: { type: 'string' },
        session: { type: 'string' },
        resume: { type: 'string' },
        turns: { type: 'string' },
        seed: { type: 'string' },
        print: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        'delay-ms': { type: 'string' },
        'pad-bytes': { type: 'string' },
        'exit-timeout-ms': { type: 'string' },
        'hang-cleanup': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    })
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
  const { values } = parsed
  if (values.session !== undefined && values.resume !== undefined) {
    throw new UsageError('--session and --resume cannot be combined: --resume <id> names the session')
  }
  return {
    dir: resolve(cwd, values.dir ?? join(tmpdir(), 'sessiontape-demo', 'sessions')),
    workspace: values.workspace === undefined ? undefined : resolve(cwd, values.workspace),
    sessionId: values.resume ?? values.session,
    resume: values.resume !== undefined,
    turns: count('turns', values.turns, 4),
    seed: count('seed', values.seed, 1),
    print: values.print,
    json: values.json,
    delayMs: count('delay-ms', values['delay-ms'], 0),
    padBytes: count('pad-bytes', values['pad-bytes'], 0),
    exitTimeoutMs: count('exit-timeout-ms', values['exit-timeout-ms'], 5000),
    hangCleanup: values['hang-cleanup'],
    help: values.help,
  }
}
