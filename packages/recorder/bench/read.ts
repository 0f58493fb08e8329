// Read-side benchmark: readSession and streamRecords throughput next to a bare readline + JSON.parse loop
// (same run, same file), peak RSS of each (own child process, so the figures are not mixed), and how long
// resuming takes as the transcript grows (tail inspection must not grow with file size).
//
// Run: node --conditions=@sessiontape/source --import tsx bench/read.ts   (from packages/recorder)
// Env: READ_BENCH_MB (default 200), RESUME_BENCH_GB (default 1), READ_BENCH_REPS (default 3),
//      CODEX_BENCH_MB (default 500: a Codex CLI rollout read next to our format, same size, same text),
//      READ_BENCH_ONLY=codex (only that comparison).
import { execFileSync } from 'node:child_process'
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdtemp, rename, rm, stat } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { createRecorder, inspectTailSync, readSession, streamRecords } from '@sessiontape/recorder'

const THIS_FILE = fileURLToPath(import.meta.url)
const MB = 1024 * 1024
const READ_MB = Number(process.env.READ_BENCH_MB ?? 200)
const RESUME_GB = Number(process.env.RESUME_BENCH_GB ?? 1)
const REPS = Number(process.env.READ_BENCH_REPS ?? 3)
const RESUME_REPS = 15
const CODEX_MB = Number(process.env.CODEX_BENCH_MB ?? 500)
const CODEX_THREAD = '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d'

type Variant = 'readline' | 'readline-keep' | 'streamRecords' | 'readSession'
interface ChildResult {
  readonly ms: number
  readonly records: number
  readonly maxRssMb: number
}

// ---------------------------------------------------------------- child side: one variant, one file

async function runVariant(variant: Variant, file: string): Promise<ChildResult> {
  const start = performance.now()
  let records = 0
  if (variant === 'readline' || variant === 'readline-keep') {
    // The bare loop every reader starts from; `-keep` also holds the records, as readSession must.
    const kept: unknown[] = []
    const keep = variant === 'readline-keep'
    const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity })
    for await (const line of lines) {
      if (line.length === 0) continue
      const value: unknown = JSON.parse(line)
      if (keep) kept.push(value)
      records++
    }
  } else if (variant === 'streamRecords') {
    for await (const _record of streamRecords(file)) records++
  } else {
    records = (await readSession(file)).records.length
  }
  const ms = performance.now() - start
  return { ms, records, maxRssMb: process.resourceUsage().maxRSS / 1024 }
}

// ---------------------------------------------------------------- parent side

/** Chat-like records of ~1 KB (200–1,800 characters of text, some non-ASCII), chained by parentUuid. */
async function generate(file: string, megabytes: number): Promise<number> {
  const out = createWriteStream(file)
  const target = megabytes * MB
  let written = 0
  let parent: string | null = null
  const filler = 'The parser and the tokenizer are tangled; splitting them — ünïcödé 😀. '.repeat(30)
  for (let i = 0; written < target; i++) {
    const uuid = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`
    const text = filler.slice(0, 200 + ((i * 7919) % 1600))
    const line = `${JSON.stringify({ uuid, parentUuid: parent, sessionId: 'bench', timestamp: new Date(1_767_225_600_000 + i).toISOString(), type: i % 2 === 0 ? 'user' : 'assistant', v: 1, text, n: i })}\n`
    parent = uuid
    written += Buffer.byteLength(line)
    if (!out.write(line)) await new Promise<void>((resolve) => out.once('drain', () => resolve()))
  }
  await new Promise<void>((resolve, reject) =>
    out.end((error?: Error | null) => (error ? reject(error) : resolve())),
  )
  return written
}

/**
 * A Codex CLI rollout with the text of {@link generate}: `session_meta`, then turns of eight lines each
 * (see the loop), so the mix of small event lines and large item lines is the one Codex writes.
 */
async function generateCodex(file: string, megabytes: number): Promise<number> {
  const out = createWriteStream(file)
  const target = megabytes * MB
  let written = 0
  const filler = 'The parser and the tokenizer are tangled; splitting them — ünïcödé 😀. '.repeat(30)
  const at = (i: number): string => new Date(1_767_225_600_000 + i).toISOString()
  const write = async (value: unknown): Promise<void> => {
    const line = `${JSON.stringify(value)}\n`
    written += Buffer.byteLength(line)
    if (!out.write(line)) await new Promise<void>((resolve) => out.once('drain', () => resolve()))
  }
  await write({
    timestamp: at(0),
    type: 'session_meta',
    payload: {
      id: CODEX_THREAD,
      timestamp: at(0),
      cwd: '/bench',
      originator: 'codex_cli_rs',
      cli_version: '0.150.0',
      source: 'cli',
    },
  })
  // One turn as Codex writes it: settings, the user's message (item and event), encrypted reasoning, a tool
  // call and its output, the answer, the running token count.
  const opaque = Buffer.from(filler).toString('base64').slice(0, 1200)
  for (let i = 1; written < target; i++) {
    const text = filler.slice(0, 200 + ((i * 7919) % 1600))
    const ts = at(i)
    const item = (payload: unknown) => write({ timestamp: ts, type: 'response_item', payload })
    await write({
      timestamp: ts,
      type: 'turn_context',
      payload: {
        cwd: '/bench',
        approval_policy: 'on-request',
        sandbox_policy: { type: 'workspace-write' },
        model: 'gpt-5.1-codex',
        effort: 'medium',
        summary: 'auto',
      },
    })
    await item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: text.slice(0, 300) }] })
    await write({
      timestamp: ts,
      type: 'event_msg',
      payload: { type: 'user_message', message: text.slice(0, 300), images: [] },
    })
    await item({
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: text.slice(0, 120) }],
      content: null,
      encrypted_content: opaque,
    })
    await item({
      type: 'function_call',
      name: 'shell',
      arguments: JSON.stringify({ command: ['rg', '-n', 'parse', 'src'] }),
      call_id: `call_${i}`,
    })
    await item({
      type: 'function_call_output',
      call_id: `call_${i}`,
      output: JSON.stringify({ output: text, metadata: { exit_code: 0 } }),
    })
    await item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] })
    await write({
      timestamp: ts,
      type: 'event_msg',
      payload: {
        type: 'token_count',
        info: {
          total_token_usage: {
            input_tokens: i * 10,
            cached_input_tokens: i * 5,
            output_tokens: i,
            reasoning_output_tokens: i >> 1,
            total_tokens: i * 11,
          },
          last_token_usage: {
            input_tokens: 10,
            cached_input_tokens: 5,
            output_tokens: 1,
            reasoning_output_tokens: 0,
            total_tokens: 11,
          },
          model_context_window: 272000,
        },
      },
    })
  }
  await new Promise<void>((resolve, reject) =>
    out.end((error?: Error | null) => (error ? reject(error) : resolve())),
  )
  return written
}

/** streamRecords on a Codex rollout and on our format of the same size, interleaved; peak RSS of each. */
async function compareCodex(dir: string): Promise<void> {
  const codex = path.join(dir, `rollout-2026-01-01T00-00-00-${CODEX_THREAD}.jsonl`)
  const ours = path.join(dir, 'ours.jsonl')
  const codexBytes = await generateCodex(codex, CODEX_MB)
  const ourBytes = await generate(ours, CODEX_MB)
  const codexRuns: ChildResult[] = []
  const ourRuns: ChildResult[] = []
  for (let rep = 0; rep < REPS; rep++) {
    ourRuns.push(child('streamRecords', ours))
    codexRuns.push(child('streamRecords', codex))
  }
  const row = (label: string, bytes: number, results: ChildResult[]): string[] => {
    const ms = median(results.map((r) => r.ms))
    return [
      label,
      (bytes / MB).toFixed(0),
      String(results[0]!.records),
      ms.toFixed(0),
      (bytes / MB / (ms / 1000)).toFixed(1),
      median(results.map((r) => r.maxRssMb)).toFixed(0),
    ]
  }
  const rows = [
    row('our format (baseline)', ourBytes, ourRuns),
    row('Codex CLI rollout', codexBytes, codexRuns),
  ]
  const ratio = Number(rows[1]![4]) / Number(rows[0]![4])
  console.log(
    `streamRecords on a Codex CLI rollout next to our format (medians of ${REPS}, each in its own process):`,
  )
  console.log(table(['file', 'MB', 'records', 'ms', 'MB/s', 'peak RSS MB'], rows))
  console.log(`Codex throughput / ours: ${ratio.toFixed(2)}\n`)
  await rm(codex)
  await rm(ours)
}

function child(variant: Variant, file: string): ChildResult {
  const stdout = execFileSync(
    process.execPath,
    ['--conditions=@sessiontape/source', '--import', 'tsx', THIS_FILE, '--child', variant, file],
    { encoding: 'utf8', maxBuffer: MB },
  )
  return JSON.parse(stdout) as ChildResult
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)))
  const line = (cells: readonly string[]) =>
    cells.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ')
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n')
}

async function timeResume(dir: string, sessionId: string): Promise<{ inspectMs: number; resumeMs: number }> {
  const file = path.join(dir, `${sessionId}.jsonl`)
  const inspect: number[] = []
  for (let i = 0; i < RESUME_REPS; i++) {
    const start = performance.now()
    inspectTailSync(file)
    inspect.push(performance.now() - start)
  }
  const resume: number[] = []
  for (let i = 0; i < 5; i++) {
    const start = performance.now()
    const recorder = createRecorder({ dir, sessionId, resume: true, meta: false })
    await recorder.ready()
    resume.push(performance.now() - start)
    await recorder.close()
  }
  return { inspectMs: median(inspect), resumeMs: median(resume) }
}

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sessiontape-read-bench-'))
  try {
    console.log(
      `Read benchmark — Node ${process.version}, ${os.cpus().length} CPUs, medians of ${REPS} runs, each in its own process\n`,
    )
    await compareCodex(dir)
    if (process.env.READ_BENCH_ONLY === 'codex') return
    const file = path.join(dir, 'read.jsonl')
    const bytes = await generate(file, READ_MB)
    const variants: Variant[] = ['readline', 'readline-keep', 'streamRecords', 'readSession']
    const runs = new Map<Variant, ChildResult[]>(variants.map((v) => [v, []]))
    // Interleaved, so a noisy moment on the shared machine hits every variant alike.
    for (let rep = 0; rep < REPS; rep++)
      for (const variant of variants) runs.get(variant)!.push(child(variant, file))
    const msOf = (variant: Variant) => median(runs.get(variant)!.map((r) => r.ms))
    const baseline = msOf('readline')
    const keepBaseline = msOf('readline-keep')
    const labels: Record<Variant, string> = {
      readline: 'readline + JSON.parse (baseline)',
      'readline-keep': 'readline + JSON.parse + keep all (baseline)',
      streamRecords: 'streamRecords',
      readSession: 'readSession (keeps all, checks links)',
    }
    const rows = variants.map((variant) => {
      const results = runs.get(variant)!
      const ms = msOf(variant)
      return [
        labels[variant],
        String(results[0]!.records),
        ms.toFixed(0),
        (bytes / MB / (ms / 1000)).toFixed(1),
        (baseline / ms).toFixed(2),
        (keepBaseline / ms).toFixed(2),
        median(results.map((r) => r.maxRssMb)).toFixed(0),
      ]
    })
    console.log(`Throughput on a ${(bytes / MB).toFixed(0)} MB transcript (${rows[0]![1]} records):`)
    console.log(
      table(['variant', 'records', 'ms', 'MB/s', '× readline', '× readline+keep', 'peak RSS MB'], rows),
    )

    // streamRecords' memory must not depend on the file size: the same loop on a file 5× as large.
    const big = path.join(dir, 'resume-big.jsonl')
    const bigBytes = await generate(big, RESUME_GB * 1024)
    const bigStream = child('streamRecords', big)
    const bigReadline = child('readline', big)
    console.log(
      `\nPeak RSS while streaming: ${(bytes / MB).toFixed(0)} MB file → ${median(runs.get('streamRecords')!.map((r) => r.maxRssMb)).toFixed(0)} MB; ` +
        `${(bigBytes / MB).toFixed(0)} MB file → ${bigStream.maxRssMb.toFixed(0)} MB ` +
        `(readline baseline: ${bigReadline.maxRssMb.toFixed(0)} MB; streamRecords ${(bigBytes / MB / (bigStream.ms / 1000)).toFixed(1)} MB/s vs ${(bigBytes / MB / (bigReadline.ms / 1000)).toFixed(1)} MB/s)`,
    )

    // Resume cost by transcript size: inspectTailSync alone, and createRecorder({ resume }) → ready().
    const small = path.join(dir, 'resume-small.jsonl')
    await generate(small, 1)
    await rename(file, path.join(dir, 'resume-mid.jsonl'))
    const resumeRows: string[][] = []
    for (const [label, sessionId] of [
      ['1 MB', 'resume-small'],
      [`${READ_MB} MB`, 'resume-mid'],
      [`${RESUME_GB} GB`, 'resume-big'],
    ] as const) {
      const size = (await stat(path.join(dir, `${sessionId}.jsonl`))).size
      const { inspectMs, resumeMs } = await timeResume(dir, sessionId)
      resumeRows.push([label, (size / MB).toFixed(0), inspectMs.toFixed(2), resumeMs.toFixed(2)])
    }
    console.log(
      `\nResume time by transcript size (medians: inspectTailSync × ${RESUME_REPS}, resume → ready() × 5):`,
    )
    console.log(table(['transcript', 'MB', 'inspectTailSync ms', 'createRecorder resume ms'], resumeRows))
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

if (process.argv[2] === '--child') {
  runVariant(process.argv[3] as Variant, process.argv[4]!).then(
    (result) => process.stdout.write(JSON.stringify(result)),
    (error: unknown) => {
      console.error(error)
      process.exitCode = 1
    },
  )
} else {
  main().catch((error: unknown) => {
    console.error(error)
    process.exitCode = 1
  })
}
