import { spawn } from 'node:child_process'

export interface RunResult {
  readonly code: number | null
  readonly output: string
}

/**
 * Runs a command with stdout and stderr merged and collected; never throws on a non-zero exit (the caller
 * decides what a failure is). `npm_*` variables are dropped: when this script runs under pnpm they carry
 * pnpm's configuration, which a plain `npm` in the scratch project must not inherit.
 */
export async function run(command: string, args: readonly string[], cwd: string): Promise<RunResult> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')),
  )
  const child = spawn(command, args, {
    cwd,
    env: { ...env, NODE_OPTIONS: '', FORCE_COLOR: '0', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject)
    child.once('close', resolve)
  })
  return { code, output }
}

/** Like `run`, but a non-zero exit is an error carrying the command's output. */
export async function mustRun(command: string, args: readonly string[], cwd: string): Promise<string> {
  const { code, output } = await run(command, args, cwd)
  if (code !== 0) throw new Error(`\`${[command, ...args].join(' ')}\` exited ${code}:\n${output}`)
  return output
}
