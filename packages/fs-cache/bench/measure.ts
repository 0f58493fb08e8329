/**
 * Repetitions per figure; the table shows the median, which shrugs off noisy runs on a shared box.
 * Many short alternating runs beat few long ones when other processes come and go.
 */
export const REPS = 9

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}

function runSync(iterations: number, fn: (i: number) => unknown): number {
  const start = process.hrtime.bigint()
  for (let i = 0; i < iterations; i++) fn(i)
  return Number(process.hrtime.bigint() - start) / iterations
}

async function runAsync(iterations: number, fn: (i: number) => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint()
  for (let i = 0; i < iterations; i++) await fn(i)
  return Number(process.hrtime.bigint() - start) / iterations
}

export interface Side<F> {
  readonly iterations: number
  readonly fn: F
}

/**
 * Median ns per call of ours and of the baseline. The repetitions alternate (ours, baseline, ours…),
 * so load from other processes on this shared machine hits both sides alike instead of one.
 */
export function compareSync(
  ours: Side<(i: number) => unknown>,
  base: Side<(i: number) => unknown>,
): [number, number] {
  runSync(Math.min(ours.iterations, 2_000), ours.fn) // warm-up: let the JIT settle first
  runSync(Math.min(base.iterations, 2_000), base.fn)
  const a: number[] = []
  const b: number[] = []
  for (let r = 0; r < REPS; r++) {
    a.push(runSync(ours.iterations, ours.fn))
    b.push(runSync(base.iterations, base.fn))
  }
  return [median(a), median(b)]
}

/** {@link compareSync} for awaited calls (serial: one in flight at a time). */
export async function compareAsync(
  ours: Side<(i: number) => Promise<unknown>>,
  base: Side<(i: number) => Promise<unknown>>,
): Promise<[number, number]> {
  await runAsync(Math.min(ours.iterations, 500), ours.fn)
  await runAsync(Math.min(base.iterations, 500), base.fn)
  const a: number[] = []
  const b: number[] = []
  for (let r = 0; r < REPS; r++) {
    a.push(await runAsync(ours.iterations, ours.fn))
    b.push(await runAsync(base.iterations, base.fn))
  }
  return [median(a), median(b)]
}

/** Median ns per burst of `start()` (all calls at once, then wait for all); `before()` runs untimed. */
export async function timeBursts(
  bursts: number,
  before: () => void,
  start: () => Promise<unknown>[],
): Promise<number> {
  const total = async (): Promise<number> => {
    let ns = 0n
    for (let b = 0; b < bursts; b++) {
      before()
      const t0 = process.hrtime.bigint()
      await Promise.all(start())
      ns += process.hrtime.bigint() - t0
    }
    return Number(ns) / bursts
  }
  await total() // warm-up
  const runs: number[] = []
  for (let r = 0; r < REPS; r++) runs.push(await total())
  return median(runs)
}
