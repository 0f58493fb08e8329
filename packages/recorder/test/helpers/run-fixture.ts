import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

export interface FixtureResult {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
  readonly stderr: string
}

/** Starts `test/fixtures/<name>.ts` in a real child process running the live TypeScript sources. */
export function startFixture(name: string, args: readonly string[]): ChildProcess {
  return spawn(
    process.execPath,
    [
      '--conditions=@sessiontape/source',
      '--import',
      'tsx',
      path.join('test', 'fixtures', `${name}.ts`),
      ...args,
    ],
    { cwd: packageDir, stdio: ['pipe', 'pipe', 'pipe'] },
  )
}

/** Collects a child's output and its exit. */
export function finished(child: ChildProcess): Promise<FixtureResult> {
  let stdout = ''
  let stderr = ''
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }))
  })
}

/**
 * A hang detector for a child process test: SIGKILLs `child` unless it ended within `ms` of this call (the caller
 * cancels once it has). `killed()` says whether it had to, so the test can fail saying so.
 */
export function killIfHung(child: ChildProcess, ms: number): { killed: () => boolean; cancel: () => void } {
  let killed = false
  const timer = setTimeout(() => {
    killed = true
    child.kill('SIGKILL')
  }, ms)
  return { killed: () => killed, cancel: () => clearTimeout(timer) }
}

export function runFixture(name: string, args: readonly string[]): Promise<FixtureResult> {
  const child = startFixture(name, args)
  child.stdin?.end()
  return finished(child)
}

/** Resolves with the child's stdout so far once it contains `marker`. */
export function waitForOutput(child: ChildProcess, marker: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = ''
    const onData = (chunk: Buffer | string) => {
      seen += chunk.toString()
      if (seen.includes(marker)) {
        child.stdout?.off('data', onData)
        resolve(seen)
      }
    }
    child.stdout?.on('data', onData)
    child.once('exit', (code) =>
      reject(new Error(`child exited (${code}) before printing ${marker}: ${seen}`)),
    )
  })
}
