import { expect } from 'vitest'
import { readSession, type SessionRecord } from '@sessiontape/recorder'

export interface ShutdownLine {
  readonly event: 'shutdown'
  readonly recorded: number
  readonly persisted: number
  readonly report: {
    readonly reason: unknown
    readonly exitCode: number | null
    readonly durationMs: number
    readonly cleanups: ReadonlyArray<{ readonly name: string; readonly status: string }>
  }
}

/** The agent's `--json` shutdown line on stderr. */
export function shutdownLine(stderr: string): ShutdownLine {
  const line = stderr
    .split('\n')
    .filter((text) => text.startsWith('{'))
    .map((text) => JSON.parse(text) as { event?: string })
    .find((parsed) => parsed.event === 'shutdown')
  if (line === undefined) throw new Error(`no shutdown report on stderr:\n${stderr}`)
  return line as ShutdownLine
}

/** The agent numbers its events 0, 1, 2… per run (`seq`) and chains each to the one before. */
export function expectOneUnbrokenRun(records: readonly SessionRecord[]): void {
  // A `title` record is metadata: it hangs off the chain and is never a parent, so the chain skips it.
  let parent: string | null = null
  records.forEach((record, index) => {
    expect(record['seq'], `record ${index} is the ${index}th event of the run`).toBe(index)
    expect(record.parentUuid).toBe(parent)
    if (record.type !== 'title') parent = record.uuid
  })
}

/** Reads a transcript and expects it to be whole: no problem of any kind. */
export async function readCleanSession(filePath: string): Promise<SessionRecord[]> {
  const { records, problems } = await readSession(filePath)
  expect(problems).toEqual([])
  return [...records]
}

/** The parts of a record that the scripted run decides (everything but ids, times, pids and paths). */
export function scriptedContent(record: SessionRecord): unknown {
  const {
    uuid: _uuid,
    parentUuid: _parent,
    timestamp: _time,
    sessionId: _session,
    pid: _pid,
    workspace: _workspace,
    ...rest
  } = record
  return rest
}
