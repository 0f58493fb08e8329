import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
/** Node arguments that run the CLI from source (relative to {@link packageDir}). */
export const CLI_ARGS = ['--conditions=@sessiontape/source', '--import', 'tsx', 'src/main.ts']
const args = CLI_ARGS

export interface CliResult {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Runs the `sessiontape` CLI from source in a child process (no build needed). */
export function runCli(...cliArgs: string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...args, ...cliArgs], { cwd: packageDir }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null
      resolve({ code, stdout, stderr })
    })
  })
}

/** {@link runCli} with extra environment variables (NO_COLOR, FORCE_COLOR, …) and node flags. */
export function runCliWith(
  options: { readonly env?: NodeJS.ProcessEnv; readonly nodeArgs?: readonly string[] },
  ...cliArgs: string[]
): Promise<CliResult> {
  const env = { ...process.env, NO_COLOR: undefined, FORCE_COLOR: undefined, ...options.env }
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...(options.nodeArgs ?? []), ...args, ...cliArgs],
      { cwd: packageDir, env, maxBuffer: 256 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null
        resolve({ code, stdout, stderr })
      },
    )
  })
}

/** Starts the CLI and leaves it running (for `tail -f`). */
export function startCli(...cliArgs: string[]): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [...args, ...cliArgs], { cwd: packageDir })
}

/**
 * Runs the CLI's command logic in this process (same code the executable runs, minus the process wiring
 * in main.ts): fast, for output and exit-code details. Process-level behaviour uses `runCli`.
 */
export async function runInProcess(...cliArgs: string[]): Promise<CliResult> {
  const { runCli: run } = await import('../../src/run-cli.js')
  let stdout = ''
  let stderr = ''
  const code = await run(cliArgs, {
    out: (text) => (stdout += text),
    err: (text) => (stderr += text),
    signal: new AbortController().signal,
  })
  return { code, stdout, stderr }
}
