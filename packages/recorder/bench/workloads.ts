import { bigData, chatData } from './records.js'
import type { Writer } from './writers.js'

export const WORKLOADS = ['chat', 'big', 'steady'] as const
export type Workload = (typeof WORKLOADS)[number]

const tick = () => new Promise((resolve) => setImmediate(resolve))

/** Calls `write` for every record of the workload; returns the number of records and the time spent in calls. */
export async function drive(
  workload: Workload,
  writer: Writer,
  quick: boolean,
): Promise<{ records: number; callNs: bigint[] }> {
  const callNs: bigint[] = []
  const timed = (type: string, data: object) => {
    const start = process.hrtime.bigint()
    writer.write(type, data)
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
