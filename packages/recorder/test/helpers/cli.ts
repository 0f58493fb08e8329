import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const args = ['--conditions=@sessiontape/source', '--import', 'tsx', 'src/cli/main.ts']

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

/** Starts the CLI and leaves it running (for `tail -f`). */
export function startCli(...cliArgs: string[]): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [...args, ...cliArgs], { cwd: packageDir })
}
