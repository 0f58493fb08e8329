import { bigData, chatData, type HugeKind, hugeData, hugeMb } from './records.js'
import type { Writer } from './writers.js'

export const WORKLOADS = ['chat', 'big', 'steady', 'huge', 'huge-strings', 'huge-paced', 'fields'] as const
export type Workload = (typeof WORKLOADS)[number]

// Records per loop turn in the `big` workload.
const BURST = 200
const tick = () => new Promise((resolve) => setImmediate(resolve))
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * The big records of the `huge` workload (issue 26), in order: base64 of 10, 50 and 100 MB, 10 MB of text
 * with escapes and non-ASCII, an object of 10⁵ small fields. `huge-strings` is the same without the last:
 * the string-heavy records alone.
 */
export const HUGE_IN_A_ROW: ReadonlyArray<readonly [HugeKind, number]> = [
  ['base64', 10],
  ['base64', 50],
  ['base64', 100],
  ['text', 10],
  ['fields', 0],
]
// --quick: the 10 MB records only.
const HUGE_IN_A_ROW_QUICK: ReadonlyArray<readonly [HugeKind, number]> = [
  ['base64', 10],
  ['text', 10],
  ['fields', 0],
]
/** Chat records after each big record of `huge`, one per loop turn. */
const CHAT_AFTER_HUGE = 20

/** The big records of the `huge-paced` workload, in order: 2.5, 10, 50 and 100 MB of base64 and of text. */
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
export const HANDS_OVER: ReadonlySet<Workload> = new Set([
  'big',
  'huge',
  'huge-strings',
  'huge-paced',
  'fields',
])

function bigRecords(workload: Workload, quick: boolean): ReadonlyArray<readonly [HugeKind, number]> {
  if (workload === 'fields') return FIELDS
  if (workload === 'huge' || workload === 'huge-strings') {
    const all = quick ? HUGE_IN_A_ROW_QUICK : HUGE_IN_A_ROW
    return workload === 'huge' ? all : all.filter(([kind]) => kind !== 'fields')
  }
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
  if (workload !== 'chat' && workload !== 'big' && workload !== 'steady')
    for (const [kind, mb] of bigRecords(workload, quick)) hugeData(kind, mb)
}

/**
 * Runs the workload's quick version once through a writer of its own (`open`), unmeasured, and waits for it
 * to finish: the process then measures code V8 has compiled, as in an agent that has been recording for a
 * while. In a fresh process the optimizing compiler works through the recorder's code during the first
 * hundred milliseconds, on threads that compete with the loop's for the two cores here (docs/big-records.md,
 * "Flat uuids and warm processes"); `JSON.stringify` is native and has little to compile.
 */
export async function warmUp(workload: Workload, open: () => Promise<Writer>): Promise<void> {
  prepare(workload, true)
  const writer = await open()
  await drive(workload, writer, true)
  await writer.finish()
  await writer.close()
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
  if (workload === 'huge' || workload === 'huge-strings') {
    // Issue 26's shape: one record per loop turn — each big record, then 20 chat records — so the big
    // records arrive in a row, long before the disk has written the last one.
    let i = 0
    const big = bigRecords(workload, quick)
    for (const [kind, mb] of big) {
      timed('tool_result', hugeData(kind, mb), true)
      await tick()
      for (let k = 0; k < CHAT_AFTER_HUGE; k++) {
        timed('assistant', chatData(i++))
        await tick()
      }
    }
    return { records: i + big.length, callNs }
  }
  if (workload === 'huge-paced' || workload === 'fields') {
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
    // Issue 26's shape: 40 records carrying ~2.5 MB of base64 among chat records, in bursts of 200 records
    // per loop turn, one big record in each.
    const bursts = quick ? 15 : 40
    for (let b = 0; b < bursts; b++) {
      for (let i = 0; i < BURST; i++) {
        if (i === BURST / 2) timed('tool_result', bigData(b), true)
        else timed('assistant', chatData(b * BURST + i))
      }
      await tick()
    }
    return { records: bursts * BURST, callNs }
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
