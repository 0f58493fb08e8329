/** Runs `task` over `items`, at most `concurrency` at once; `worker` numbers the lane (0…concurrency-1). */
export async function inBatches<T>(
  items: readonly T[],
  concurrency: number,
  task: (item: T, worker: number) => Promise<unknown>,
): Promise<void> {
  let next = 0
  const lane = async (worker: number): Promise<void> => {
    while (next < items.length) await task(items[next++]!, worker)
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, (_, worker) => lane(worker)))
}
