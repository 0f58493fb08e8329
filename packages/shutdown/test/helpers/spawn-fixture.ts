import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { onTestFinished } from 'vitest'

/** The package directory: fixtures run with it as cwd so `tsx` and the package resolve. */
export const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..')

/** `node` arguments that run a `.ts` fixture from `test/fixtures/` against the live sources. */
export function fixtureArgs(name: string): string[] {
  return ['--conditions=@sessiontape/source', '--import', 'tsx', join(packageDir, 'test', 'fixtures', name)]
}

export interface Exit {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
}

export interface RunningFixture {
  readonly child: ChildProcess
  /** Resolves once the fixture wrote `ready` on stderr: it is safe to signal it from then on. */
  readonly ready: Promise<void>
  readonly exit: Promise<Exit>
  stdout(): string
  stderr(): string
  /** With `pauseStdout`: start reading (and collecting) stdout now. */
  resumeStdout(): void
}

export interface SpawnOptions {
  readonly env?: Record<string, string>
  readonly stdio?: StdioOptions
  /**
   * Leave stdout unread until `resumeStdout()`: the pipe fills and the child's writes queue up. Held with a
   * `'readable'` listener that does not read, because Node resumes (and discards) a child's unconsumed
   * stdio when it exits, which would hide whether the child delivered its output.
   */
  readonly pauseStdout?: boolean
}

/** Spawns a fixture; its stdout/stderr are collected unless paused. */
export function spawnFixture(name: string, options: SpawnOptions = {}): RunningFixture {
  const child = spawn(process.execPath, fixtureArgs(name), {
    cwd: packageDir,
    env: { ...process.env, ...options.env },
    stdio: options.stdio ?? ['ignore', 'pipe', 'pipe'],
  })
  // A failed assertion must not leave a fixture running.
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    // A stdout that was never resumed would keep its pipe (and the test worker) open.
    child.stdout?.destroy()
  })
  let out = ''
  let err = ''
  let reading = !options.pauseStdout
  const readStdout = (): void => {
    if (!reading || !child.stdout) return
    // setEncoding('utf8') above: read() returns strings.
    let chunk = child.stdout.read() as string | null
    while (chunk !== null) {
      out += chunk
      chunk = child.stdout.read() as string | null
    }
  }
  child.stdout?.setEncoding('utf8').on('readable', readStdout)
  const ready = new Promise<void>((resolve, reject) => {
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      err += chunk
      if (/^ready$/m.test(err)) resolve()
    })
    child.once('exit', () => reject(new Error(`fixture ${name} exited before ready; stderr:\n${err}`)))
  })
  // The exit promise is what tests assert on; a rejected `ready` is only awaited by tests that need it.
  ready.catch(() => {})
  const exit = new Promise<Exit>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal })),
  )
  const resumeStdout = (): void => {
    reading = true
    readStdout()
  }
  return { child, ready, exit, stdout: () => out, stderr: () => err, resumeStdout }
}

/** A temp dir for one test's marker and report files. */
export async function withTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'sessiontape-shutdown-'))
  try {
    return await fn(dir)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** Lines of a marker file the fixture appended to (`[]` when it was never written). */
export async function readLines(path: string): Promise<string[]> {
  try {
    return (await readFile(path, 'utf8')).split('\n').filter(Boolean)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
}

/** The JSON report a fixture wrote from its onReport hook. */
export interface ReportJson {
  reason: { type: string; signal?: string; code?: number; stream?: string; origin?: string }
  exitCode: number | null
  durationMs: number
  cleanups: Array<{
    name: string
    status: string
    durationMs: number
    error?: { code?: string; message?: string }
  }>
  laterReasons: Array<{ type: string; signal?: string; origin?: string }>
  deadlineExceeded: boolean
  forced: boolean
}

export async function readReport(path: string): Promise<ReportJson> {
  return JSON.parse(await readFile(path, 'utf8')) as ReportJson
}

export interface RunningAgent extends RunningFixture {
  /** The lines the cleanups appended to the marker file. */
  lines(): Promise<string[]>
  /** The report the fixture's onReport hook wrote. */
  report(): Promise<ReportJson>
}

/** The `agent.ts` fixture with its marker and report files in `dir`; `env` sets the scenario. */
export function spawnAgent(dir: string, env: Record<string, string>): RunningAgent {
  const marker = join(dir, 'marker')
  const report = join(dir, 'report.json')
  const fixture = spawnFixture('agent.ts', {
    env: { FIXTURE_MARKER: marker, FIXTURE_REPORT: report, ...env },
  })
  return { ...fixture, lines: () => readLines(marker), report: () => readReport(report) }
}
