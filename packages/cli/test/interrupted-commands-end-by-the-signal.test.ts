import { spawn } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it, type TestContext } from 'vitest'
import { CLI_ARGS, packageDir } from './helpers/cli.js'
import { makeChain, toJsonl, withTempDir } from '../../recorder/test/helpers/records.js'

const STALL = path.join(packageDir, 'test/fixtures/stall-at-stat.ts')

interface Ended {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
  readonly stderr: string
}

/**
 * Runs the CLI with `args`, sends `signal` once it is at work — stalled in a stat of `stallPath` (see the
 * fixture), or, for `tail -f`, once it printed something — and collects how it ended.
 */
function interrupt(
  context: TestContext,
  args: readonly string[],
  signal: NodeJS.Signals,
  stall: { readonly path: string; readonly mode: 'until-signal' | 'forever' } | null,
): Promise<Ended> {
  const [conditions = '', importFlag = '', tsx = '', main = ''] = CLI_ARGS
  const nodeArgs = [conditions, importFlag, tsx, ...(stall === null ? [] : ['--import', STALL]), main]
  const child = spawn(process.execPath, [...nodeArgs, ...args], {
    cwd: packageDir,
    env: { ...process.env, STALL_PATH: stall?.path ?? '', STALL_MODE: stall?.mode ?? '' },
  })
  context.onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  })
  let stdout = ''
  let stderr = ''
  let sent = false
  const atWork = () => (stall === null ? stdout !== '' : stderr.includes('[stalled]\n'))
  const maybeSend = () => {
    if (!sent && atWork()) {
      sent = true
      child.kill(signal)
    }
  }
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString()
    maybeSend()
  })
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
    maybeSend()
  })
  return new Promise((resolve) =>
    child.on('close', (code, endedBy) => resolve({ code, signal: endedBy, stdout, stderr })),
  )
}

describe('a command interrupted by a signal says so and ends by that signal, never with 0', () => {
  const cases = [
    { command: 'list', signal: 'SIGINT', target: 'dir' },
    { command: 'show', signal: 'SIGTERM', target: 'file' },
    { command: 'verify', signal: 'SIGHUP', target: 'file' },
    { command: 'verify', signal: 'SIGINT', target: 'file' },
    { command: 'repair', signal: 'SIGTERM', target: 'file' },
    { command: 'tail', signal: 'SIGHUP', target: 'file' },
  ] as const

  // Concurrent: each case mostly waits for a child process to start.
  it.concurrent.for(cases)(
    '$command, $signal while it works',
    async ({ command, signal, target }, context) => {
      await withTempDir(async (dir) => {
        const file = path.join(dir, 's1.jsonl')
        await writeFile(file, `${toJsonl(makeChain(3))}{"uuid":"torn`)
        const ended = await interrupt(context, [command, target === 'dir' ? dir : file], signal, {
          path: target === 'dir' ? dir : file,
          mode: 'until-signal',
        })
        expect(ended.signal).toBe(signal)
        expect(ended.stderr).toContain(`sessiontape ${command}: interrupted by ${signal}\n`)
      })
    },
  )

  it.concurrent('tail -f, Ctrl-C while it follows: ends by SIGINT (a shell shows 130)', async (context) => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      await writeFile(file, toJsonl(makeChain(2)))
      const ended = await interrupt(context, ['tail', '-f', file], 'SIGINT', null)
      expect(ended).toMatchObject({ signal: 'SIGINT', stderr: 'sessiontape tail: interrupted by SIGINT\n' })
    })
  })

  it.concurrent('a command stuck in I/O that never returns still ends by the signal', async (context) => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      await writeFile(file, toJsonl(makeChain(2)))
      const ended = await interrupt(context, ['verify', file], 'SIGTERM', { path: file, mode: 'forever' })
      expect(ended).toMatchObject({
        signal: 'SIGTERM',
        stdout: '',
        stderr: '[stalled]\nsessiontape verify: interrupted by SIGTERM\n',
      })
    })
  })
})
