import { bigData, chatData, type HugeKind, hugeData, hugeMb } from './records.js'
import type { Writer } from './writers.js'

export const WORKLOADS = ['chat', 'big', 'steady', 'huge', 'fields'] as const
export type Workload = (typeof WORKLOADS)[number]

const tick = () => new Promise((resolve) => setImmediate(resolve))
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The big records of the `huge` workload, in order: 2.5, 10, 50 and 100 MB of base64 and of text. */
export const HUGE: ReadonlyArray<readonly [HugeKind, number]> = [
  ['base64', 2.5],
  ['text', 2.5],
  ['base64', 10],
  ['text', 10],
  ['base64', 50],
  ['text', 50],
  ['base64', 100],
  ['text', 100],
]
// --quick: the 2.5 and 10 MB records only.
const HUGE_QUICK = 4
/** The big records of the `fields` workload: 10⁵ small fields in one object, 10⁵ small objects; twice. */
export const FIELDS: ReadonlyArray<readonly [HugeKind, number]> = [
  ['fields', 0],
  ['items', 0],
  ['fields', 0],
  ['items', 0],
]

/** The workloads that hand records over (their big ones); elsewhere `ours-handover` is the same as `ours`. */
export const HANDS_OVER: ReadonlySet<Workload> = new Set(['huge', 'fields'])

function bigRecords(workload: Workload, quick: boolean): ReadonlyArray<readonly [HugeKind, number]> {
  if (workload === 'fields') return FIELDS
  return quick ? HUGE.slice(0, HUGE_QUICK) : HUGE
}

/**
 * Rounds of chat records (10 every 5 ms) that follow a big record of `mb` MB: 250 ms + 10 ms per MB, about
 * the time it takes to write it here, so that the next one does not find the last one still queued (that
 * is the overflow policy's case, measured by the sync fs calls column, not this workload's).
 */
export function roundsAfter(kind: HugeKind, mb: number): number {
  return 50 + Math.ceil(2 * hugeMb(kind, mb))
}

/** Builds what a workload records before the timed phase (building 100 MB of payload stalls too). */
export function prepare(workload: Workload, quick: boolean): void {
  if (workload === 'huge' || workload === 'fields')
    for (const [kind, mb] of bigRecords(workload, quick)) hugeData(kind, mb)
}

/** Calls `write` for every record of the workload; returns the number of records and the time spent in calls. */
export async function drive(
  workload: Workload,
  writer: Writer,
  quick: boolean,
): Promise<{ records: number; callNs: bigint[] }> {
  const callNs: bigint[] = []
  const timed = (type: string, data: object, handOver = false) => {
    const start = process.hrtime.bigint()
    writer.write(type, data, handOver)
    callNs.push(process.hrtime.bigint() - start)
  }
  if (workload === 'chat') {
    // 20,000 ~1 KB chat records in bursts of 200, yielding to the event loop between bursts.
    const total = quick ? 6_000 : 20_000
    for (let i = 0; i < total; i++) {
      timed(i % 2 === 0 ? 'user' : 'assistant', chatData(i))
      if (i % 200 === 199) await tick()
    }
    return { records: total, callNs }
  }
  if (workload === 'huge' || workload === 'fields') {
    // Each big record (2.5 to 100 MB of base64 or text; or a structure of 10⁵ small parts) lands in the
    // middle of a burst of chat records; chat records keep coming, 10 every 5 ms (see roundsAfter). The big
    // record is handed over (the workload never changes it); only `ours-handover` makes use of that.
    let i = 0
    const big = bigRecords(workload, quick)
    for (const [kind, mb] of big) {
      for (let k = 0; k < 10; k++) timed('assistant', chatData(i++))
      timed('tool_result', hugeData(kind, mb), true)
      const rounds = roundsAfter(kind, mb)
      for (let round = 0; round < rounds; round++) {
        for (let k = 0; k < 10; k++) timed('assistant', chatData(i++))
        await sleep(5)
      }
    }
    return { records: i + big.length, callNs }
  }
  if (workload === 'big') {
    // 40 records carrying ~2.5 MB of base64 among small ones: bursts of 10, one big record in each.
    const bursts = quick ? 15 : 40
    for (let b = 0; b < bursts; b++) {
      for (let i = 0; i < 10; i++) timed('tool_result', i === 5 ? bigData(b) : chatData(b * 10 + i))
      await tick()
    }
    return { records: bursts * 10, callNs }
  }
  // A steady 2,000 records/s for 3 s, driven by a 1 ms timer that catches up with the schedule.
  const seconds = quick ? 1.5 : 3
  const total = Math.round(2000 * seconds)
  const start = performance.now()
  let sent = 0
  await new Promise<void>((resolve) => {
    const step = () => {
      const due = Math.min(total, Math.floor((performance.now() - start) * 2))
      while (sent < due) timed('assistant', chatData(sent++))
      if (sent >= total) resolve()
      else setTimeout(step, 1)
    }
    step()
  })
  return { records: total, callNs }
}
