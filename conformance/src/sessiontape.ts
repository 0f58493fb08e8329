import { runCli } from '../../packages/cli/src/run-cli.js'

/**
 * Runs one `sessiontape` command line in this process, through the same entry the executable uses
 * (packages/cli/src/run-cli.ts, live sources via the `@sessiontape/source` condition): the output a user
 * would see, without paying a Node start per command.
 */

export interface CliResult {
  readonly code: number
  readonly out: string
  readonly err: string
}

export async function sessiontape(argv: readonly string[]): Promise<CliResult> {
  let out = ''
  let err = ''
  const controller = new AbortController()
  const code = await runCli(argv, {
    out: (text) => {
      out += text
    },
    err: (text) => {
      err += text
    },
    signal: controller.signal,
  })
  return { code, out, err }
}

/** `--json` output parsed; undefined (with the reason in `error`) when it is not JSON. */
export async function sessiontapeJson(
  argv: readonly string[],
): Promise<{ value: unknown; result: CliResult }> {
  const result = await sessiontape([...argv, '--json'])
  try {
    return { value: JSON.parse(result.out) as unknown, result }
  } catch {
    // Not JSON: the caller reports the raw output.
    return { value: undefined, result }
  }
}
