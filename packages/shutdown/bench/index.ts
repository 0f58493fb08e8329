// Benchmarks for @sessiontape/shutdown, each next to a baseline measured in the same run:
//   1. in-process cleanup pass: ours (per-cleanup timer + AbortSignal + report) vs a bare sequential
//      await loop and a loop with a per-cleanup Promise.race timeout (the Qwen Code shape)
//   2. lines delivered when exiting right after writing 10 000 lines to a slow pipe reader:
//      gracefulExit (bounded drain) vs process.exit(0)
//   3. SIGTERM-to-exit latency of a child with 100 async cleanups: ours vs a hand-written handler
// Medians over REPS repetitions. Run: npx --yes pnpm@10.34.8 --filter @sessiontape/shutdown bench
import { spawn } from 'node:child_process'
import { dirname, join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { EventEmitter } from 'node:events'
import { createShutdown, type ProcessPort } from '@sessiontape/shutdown'

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..')
const REPS = Number(process.env.BENCH_REPS ?? 5)

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2
}

function table(title: string, head: string[], rows: Array<Array<string | number>>): void {
  const cells = [head, ...rows.map((row) => row.map(String))]
  const widths = head.map((_, i) => Math.max(...cells.map((row) => (row[i] ?? '').length)))
  console.log(`\n${title}`)
  for (const [index, row] of cells.entries()) {
    console.log(`  ${row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ')}`)
    if (index === 0) console.log(`  ${widths.map((w) => '-'.repeat(w)).join('  ')}`)
  }
}

const fmt = (n: number, digits = 1): string => n.toFixed(digits)

// ---- 1. in-process pass ----------------------------------------------------------------------------

class NullProcess extends EventEmitter implements ProcessPort {
  platform = process.platform
  exitCode: number | undefined
  exit(): void {}
}

async function ourPass(n: number): Promise<number> {
  const shutdown = createShutdown({ process: new NullProcess(), stdout: null, stderr: null })
  const started = performance.now()
  for (let i = 0; i < n; i++) shutdown.registerCleanup(() => {}, { name: `c${i}` })
  const report = await shutdown.runExitCleanup()
  if (report.cleanups.length !== n) throw new Error('pass lost cleanups')
  return performance.now() - started
}

async function bareLoop(n: number): Promise<number> {
  const started = performance.now()
  const fns: Array<() => void> = []
  for (let i = 0; i < n; i++) fns.push(() => {})
  for (const fn of fns.reverse()) {
    try {
      await Promise.resolve().then(fn)
    } catch {
      // Baseline: failures are swallowed.
    }
  }
  return performance.now() - started
}

async function raceLoop(n: number): Promise<number> {
  const started = performance.now()
  const fns: Array<() => void> = []
  for (let i = 0; i < n; i++) fns.push(() => {})
  for (const fn of fns.reverse()) {
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, 2000)
      timer.unref()
    })
    try {
      await Promise.race([Promise.resolve().then(fn), timeout])
    } catch {
      // Baseline: failures are swallowed.
    } finally {
      clearTimeout(timer)
    }
  }
  return performance.now() - started
}

async function benchPass(): Promise<void> {
  const rows: Array<Array<string | number>> = []
  for (const n of [100, 10_000]) {
    const results: Record<string, number> = {}
    for (const [name, fn] of [
      ['ours', ourPass],
      ['bare await loop', bareLoop],
      ['Promise.race timeout loop', raceLoop],
    ] as const) {
      await fn(n) // warm-up
      const times: number[] = []
      for (let r = 0; r < REPS; r++) times.push(await fn(n))
      results[name] = median(times)
    }
    const ours = results.ours ?? 0
    for (const [name, ms] of Object.entries(results)) {
      rows.push([n, name, fmt(ms, 2), fmt((ms * 1000) / n, 2), name === 'ours' ? '1.00' : fmt(ours / ms, 2)])
    }
  }
  table(
    `1. register + run N no-op cleanups in-process (median of ${REPS})`,
    ['N', 'variant', 'ms', 'µs/cleanup', 'ours ÷ this'],
    rows,
  )
}

// ---- child-process helpers -------------------------------------------------------------------------

function nodeArgs(file: string): string[] {
  return ['--conditions=@sessiontape/source', '--import', 'tsx', join(packageDir, file)]
}

// ---- 2. lines delivered ----------------------------------------------------------------------------

async function linesDelivered(
  mode: 'graceful' | 'naive',
): Promise<{ lines: number; ms: number; code: number | null }> {
  const started = performance.now()
  const child = spawn(process.execPath, nodeArgs('test/fixtures/many-lines.ts'), {
    cwd: packageDir,
    env: { ...process.env, FIXTURE_MODE: mode },
    stdio: ['ignore', 'pipe', 'ignore'],
  })
  const closed = new Promise<number | null>((resolve) => child.once('close', resolve))
  let lines = 0
  let reading = false
  // A 'readable' listener that does not read yet: the pipe fills and the child's writes queue. (With no
  // listener at all, Node would resume and discard the child's stdout as soon as it exits.)
  const read = (): void => {
    if (!reading) return
    for (
      let chunk = child.stdout.read() as Buffer | null;
      chunk !== null;
      chunk = child.stdout.read() as Buffer | null
    ) {
      for (const byte of chunk) if (byte === 10) lines++
    }
  }
  child.stdout.on('readable', read)
  await sleep(300)
  reading = true
  read()
  const code = await closed
  return { lines, ms: performance.now() - started, code }
}

async function benchLines(): Promise<void> {
  const rows: Array<Array<string | number>> = []
  const reps = Math.max(3, Math.ceil(REPS / 2))
  for (const mode of ['graceful', 'naive'] as const) {
    const runs = []
    for (let r = 0; r < reps; r++) runs.push(await linesDelivered(mode))
    rows.push([
      mode === 'graceful' ? 'ours: gracefulExit(0)' : 'baseline: process.exit(0)',
      `${median(runs.map((r) => r.lines))} / 10000`,
      runs.map((r) => r.lines).join(' '),
      fmt(median(runs.map((r) => r.ms)), 0),
      runs.map((r) => r.code).join(' '),
    ])
  }
  table(
    `2. lines received after writing 10 000 lines and exiting, reader paused 300 ms (median of ${reps})`,
    ['variant', 'median lines', 'per run', 'spawn→close ms', 'exit codes'],
    rows,
  )
}

// ---- 3. SIGTERM → exit ----------------------------------------------------------------------------

async function signalToExit(
  variant: 'ours' | 'baseline',
  count: number,
): Promise<{ ms: number; ending: string }> {
  const file = variant === 'ours' ? 'test/fixtures/agent.ts' : 'bench/fixtures/baseline-sigterm.ts'
  const child = spawn(process.execPath, nodeArgs(file), {
    cwd: packageDir,
    env: {
      ...process.env,
      FIXTURE_COUNT: String(count),
      FIXTURE_SIGNALS: '{}',
      FIXTURE_CLEANUPS: JSON.stringify(
        Array.from({ length: count }, (_, i) => ({ name: `c${i}`, kind: 'ok' })),
      ),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  await new Promise<void>((resolve) => {
    let err = ''
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      err += chunk
      if (err.includes('ready\n')) resolve()
    })
  })
  // Ours ends by the re-raised signal (code null), the baseline by process.exit(143): show whichever.
  const exited = new Promise<string>((resolve) =>
    child.once('exit', (code, signal) => resolve(String(code ?? signal))),
  )
  const started = performance.now()
  child.kill('SIGTERM')
  const ending = await exited
  return { ms: performance.now() - started, ending }
}

async function benchSignal(): Promise<void> {
  const rows: Array<Array<string | number>> = []
  const count = 100
  const results: Record<string, number> = {}
  for (const variant of ['ours', 'baseline'] as const) {
    const runs = []
    for (let r = 0; r < REPS; r++) runs.push(await signalToExit(variant, count))
    results[variant] = median(runs.map((r) => r.ms))
    rows.push([
      variant === 'ours' ? 'ours (installSignalHandlers)' : 'baseline (hand-written await loop)',
      fmt(results[variant] ?? 0, 1),
      runs.map((r) => r.ending).join(' '),
    ])
  }
  rows.push(['ratio ours ÷ baseline', fmt((results.ours ?? 0) / (results.baseline ?? 1), 2), ''])
  table(
    `3. SIGTERM → exit of a child with ${count} async cleanups (median of ${REPS})`,
    ['variant', 'ms', 'exit code or signal'],
    rows,
  )
}

console.log(`@sessiontape/shutdown bench — node ${process.version}, ${process.platform}, REPS=${REPS}`)
await benchPass()
await benchLines()
await benchSignal()
