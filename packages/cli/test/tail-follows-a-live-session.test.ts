import { appendFile, rename, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { createRecorder, readSession, repairTranscript } from '@sessiontape/recorder'
import { runCli, startCli } from './helpers/cli.js'
import { makeChain, makeRecord, toJsonl, withTempDir } from '../../recorder/test/helpers/records.js'

/** Resolves once `predicate` holds for the text collected so far (bounded by the test timeout). */
function waitFor(read: () => string, predicate: (text: string) => boolean): Promise<void> {
  return new Promise((resolve) => {
    const check = () => (predicate(read()) ? resolve() : setTimeout(check, 20))
    check()
  })
}

/** Starts `sessiontape tail -f …` in a child process and collects what it prints. */
function follow(...args: string[]) {
  const child = startCli('tail', '-f', ...args)
  const output = { stdout: '', stderr: '' }
  child.stdout.on('data', (chunk: Buffer) => (output.stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output.stderr += chunk.toString()))
  // An interrupted tail -f ends by the signal (a shell shows 128+n), so `exited` is the signal's name.
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) =>
    child.on('exit', (code, signal) => resolve(signal ?? code)),
  )
  // A failed or timed-out test must not leave `tail -f` running.
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  })
  return { child, output, exited }
}

/** The uuids of the records `tail --json` printed, in order. */
function printedUuids(stdout: string): string[] {
  return stdout
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { uuid: string }).uuid)
}

describe('sessiontape tail prints the last records and follows a live session', () => {
  it('prints the last -n records and exits without -f', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      await writeFile(file, toJsonl(makeChain(5)))
      const { code, stdout } = await runCli('tail', '-n', '2', file)
      expect(code).toBe(0)
      expect(stdout).toBe(
        '4: 2026-01-01 00:00:03Z message: record 3\n5: 2026-01-01 00:00:04Z message: record 4\n',
      )
    })
  })

  it('with -f prints each appended record once its line is complete, and ends by SIGTERM', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      await writeFile(file, toJsonl(makeChain(3)))
      const { child, output, exited } = follow('--json', '-n', '1', file)
      await waitFor(
        () => output.stdout,
        (text) => text.includes('"u2"'),
      )
      // A record written in two pieces, like a write in progress: nothing until the newline.
      const next = JSON.stringify(makeRecord(3, 'u2'))
      await appendFile(file, next.slice(0, 40))
      await new Promise((resolve) => setTimeout(resolve, 600))
      expect(output.stdout).not.toContain('"u3"')
      await appendFile(file, `${next.slice(40)}\n${JSON.stringify(makeRecord(4, 'u3'))}\n`)
      await waitFor(
        () => output.stdout,
        (text) => text.includes('"u4"'),
      )
      child.kill('SIGTERM')
      expect(await exited).toBe('SIGTERM')
      expect(printedUuids(output.stdout)).toEqual(['u2', 'u3', 'u4'])
    })
  })

  it('announces a replaced file (a repair) on stderr and misses nothing appended to it meanwhile', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      await writeFile(file, `${toJsonl(makeChain(2))}{"torn`)
      const { child, output, exited } = follow('--json', file)
      await waitFor(
        () => output.stdout,
        (text) => text.includes('"u1"'),
      )
      // A repaired copy switched in (what `sessiontape repair` tells a user to do), then a resumed writer
      // appends at once: tail's next poll finds a new file that already grew.
      await repairTranscript(file, { out: `${file}.repaired` })
      await rename(`${file}.repaired`, file)
      await appendFile(file, `${JSON.stringify(makeRecord(2, 'u1'))}\n`)
      await waitFor(
        () => output.stdout,
        (text) => text.includes('"u2"'),
      )
      child.kill('SIGINT')
      expect(await exited).toBe('SIGINT')
      expect(output.stderr).toBe(
        `sessiontape tail: ${file} was replaced (repaired?); following the new file from line 3\n` +
          'sessiontape tail: interrupted by SIGINT\n',
      )
      expect(printedUuids(output.stdout)).toEqual(['u0', 'u1', 'u2'])
    })
  })

  it('numbers the records after a repair by the lines of the repaired file', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      const [u0, u1] = makeChain(2).map((r) => JSON.stringify(r))
      await writeFile(file, `${u0}\nnot json\n${u1}\n{"torn`)
      const { child, output, exited } = follow(file)
      await waitFor(
        () => output.stdout,
        (text) => text.includes('3: '),
      )
      // The repaired copy leaves the garbage line out: once switched in it has 2 lines, so the next record is line 3.
      const { outPath } = await repairTranscript(file)
      await rename(outPath!, file)
      await waitFor(
        () => output.stderr,
        (text) => text.includes('was replaced'),
      )
      await appendFile(file, `${JSON.stringify(makeRecord(2, 'u1'))}\n`)
      await waitFor(
        () => output.stdout,
        (text) => text.includes('record 2'),
      )
      child.kill('SIGTERM')
      expect(await exited).toBe('SIGTERM')
      expect(output.stdout.trim().split('\n').at(-1)).toBe('3: 2026-01-01 00:00:02Z message: record 2')
    })
  })

  it('reads the recovered record when a resume recovers the torn tail it was waiting on', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      await writeFile(file, `${toJsonl(makeChain(2))}{"uuid":"torn","ty`)
      const { child, output, exited } = follow('--json', file)
      await waitFor(
        () => output.stdout,
        (text) => text.includes('"u1"'),
      )
      // The resume leaves the torn bytes in place, ends them with a newline and appends a `recovered`
      // record naming them: tail reports them as recovered, not as damage.
      const resumed = createRecorder({ dir, sessionId: 's1', resume: true, meta: false })
      const added = resumed.record('user', { text: 'Where were we?' })
      await resumed.close()
      await waitFor(
        () => output.stdout,
        (text) => text.includes(added),
      )
      child.kill('SIGTERM')
      expect(await exited).toBe('SIGTERM')
      const { records, problems } = await readSession(file)
      expect(records.map((r) => r.type)).toEqual(['message', 'message', 'recovered', 'user'])
      expect(problems).toEqual([])
      expect(printedUuids(output.stdout)).toEqual(records.map((r) => r.uuid))
      const [interrupt, ...jsonLines] = output.stderr.trim().split('\n').reverse()
      expect(interrupt).toBe('sessiontape tail: interrupted by SIGTERM')
      const reported = jsonLines.reverse().map((line) => JSON.parse(line) as object)
      expect(reported).toMatchObject([{ recovered: { line: 3, kinds: ['invalid-json'] } }])
    })
  })
})
