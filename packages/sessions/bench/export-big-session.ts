/**
 * Export throughput and memory on a big session, beside its baselines in the same run:
 * - read floor: stream the file's lines and JSON.parse each (no model, no render);
 * - model only: streamConversation() over the file, events counted;
 * - export md / export html (branch all: no branch pass) and html --branch active (two passes), and each
 *   with --redact (md --branch all, html branch active).
 * Peak RSS is sampled every 10 ms during each run; a flat-memory export stays near the baseline's RSS
 * whatever the file's size: give two sizes (`50 100`) to see it. Each row prints wall time, CPU time (less
 * sensitive to a busy machine) and its ratio to `streamConversation only` of the same size (the target,
 * 100 MB in 3 s where reading takes 0.8 s, is ~3.7×). Time and memory are printed, never asserted.
 *
 * Run: node --expose-gc --conditions=@sessiontape/source --import tsx packages/sessions/bench/export-big-session.ts [MB…]
 */
import { createReadStream, mkdtempSync, openSync, writeSync, closeSync, rmSync, statSync } from 'node:fs'
import { loadavg } from 'node:os'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { exportSession } from '../src/index.js'
import { streamConversation } from '../src/stream-conversation.js'

const sizes = process.argv.slice(2).map(Number)
if (sizes.length === 0) sizes.push(100)
const dir = mkdtempSync(join(tmpdir(), 'st-export-bench-'))
let file = ''
let targetMb = 0

/** A Claude Code session: user prompt, assistant text + tool_use, tool_result, with usage; ~2 KiB per turn. */
function writeSession(): number {
  const fd = openSync(file, 'w')
  let bytes = 0
  let parent: string | null = null
  let turn = 0
  const filler = 'The function reads the file in chunks and hands each line to the parser; '.repeat(6)
  const out = 'src/index.ts:42: const x = readThing(path)\n'.repeat(12)
  while (bytes < targetMb * 1024 * 1024) {
    const lines: string[] = []
    const ts = new Date(Date.UTC(2026, 0, 1) + turn * 1000).toISOString()
    const id = (k: string): string => `${k}-${turn.toString(16).padStart(8, '0')}-0000-4000-8000-000000000000`
    const rec = (uuid: string, body: Record<string, unknown>): void => {
      lines.push(
        JSON.stringify({
          parentUuid: parent,
          isSidechain: false,
          userType: 'external',
          cwd: '/work/app',
          sessionId: 'bench',
          version: '2.1.0',
          uuid,
          timestamp: ts,
          ...body,
        }),
      )
      parent = uuid
    }
    rec(id('u'), {
      type: 'user',
      message: { role: 'user', content: `Turn ${turn}: please look at the reader again. ${filler}` },
    })
    rec(id('a'), {
      type: 'assistant',
      requestId: `req_${turn}`,
      message: {
        id: `msg_${turn}`,
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [
          { type: 'text', text: `Looking at it now. ${filler}` },
          {
            type: 'tool_use',
            id: `toolu_${turn}`,
            name: 'Bash',
            input: { command: `grep -n readThing src/*.ts # ${turn}` },
          },
        ],
        usage: {
          input_tokens: 1200 + (turn % 50),
          cache_read_input_tokens: 800,
          cache_creation_input_tokens: 10,
          output_tokens: 150,
        },
      },
    })
    rec(id('r'), {
      type: 'user',
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: `toolu_${turn}`, content: out }],
      },
    })
    const chunk = lines.join('\n') + '\n'
    writeSync(fd, chunk)
    bytes += Buffer.byteLength(chunk)
    turn++
  }
  closeSync(fd)
  return turn
}

/** CPU seconds of `streamConversation only` for the current size: the other rows' ratios divide by it. */
let streamCpu = 0
let streamWall = 0
/** False during the warm-up. */
let printing = true

async function measure(name: string, run: () => Promise<unknown>): Promise<void> {
  ;(globalThis as { gc?: () => void }).gc?.()
  const base = process.memoryUsage().rss
  let peak = base
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss)
  }, 10)
  const cpuBefore = process.cpuUsage()
  const started = performance.now()
  await run()
  const wall = (performance.now() - started) / 1000
  const used = process.cpuUsage(cpuBefore)
  const cpu = (used.user + used.system) / 1e6
  clearInterval(sampler)
  peak = Math.max(peak, process.memoryUsage().rss)
  if (name === 'baseline: streamConversation only') {
    streamCpu = cpu
    streamWall = wall
  }
  if (!printing) return
  const mb = statSync(file).size / 1024 / 1024
  const ratio = streamCpu > 0 ? `${(wall / streamWall).toFixed(2)}× ${(cpu / streamCpu).toFixed(2)}×` : ''
  console.log(
    `${`${targetMb} MB ${name}`.padEnd(44)} ${wall.toFixed(2).padStart(6)} s ${cpu.toFixed(2).padStart(6)} s cpu ${(mb / wall).toFixed(0).padStart(4)} MB/s  peak RSS ${(peak / 1024 / 1024).toFixed(0).padStart(5)} MB (+${((peak - base) / 1024 / 1024).toFixed(0).padStart(3)} over start)  ${ratio}`,
  )
}

console.log(
  `Node ${process.version}, load average ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}; ratio = wall and CPU time over 'streamConversation only' of the same size`,
)
const discard = (): void => {}
// A warm-up on 2 MB, not printed: loading and compiling the modules is not charged to the first rows.
sizes.unshift(-2)
for (const size of sizes) {
  printing = size > 0
  targetMb = Math.abs(size)
  file = join(dir, `big-claude-session-${size}.jsonl`)
  streamCpu = 0
  const turns = writeSession()
  if (printing) console.log(`session: ${(statSync(file).size / 1024 / 1024).toFixed(1)} MB, ${turns} turns`)
  await measure('baseline: lines + JSON.parse', async () => {
    for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity }))
      if (line !== '') JSON.parse(line)
  })
  await measure('baseline: streamConversation only', async () => {
    let n = 0
    for await (const _ of streamConversation(file)) n++
    return n
  })
  // Each --redact row right after its plain row; --out last: the kernel writes its 100 MB file back to disk
  // after the row ends, and a row run then could pay for it (the --redact row used to run right after it).
  await measure('export md --branch all', () =>
    exportSession(file, { format: 'md', branch: 'all', write: discard }),
  )
  await measure('export md --redact --branch all', () =>
    exportSession(file, { format: 'md', branch: 'all', redact: true, write: discard }),
  )
  await measure('export html --branch all', () =>
    exportSession(file, { format: 'html', branch: 'all', write: discard }),
  )
  await measure('export html (branch active)', () => exportSession(file, { format: 'html', write: discard }))
  await measure('export html --redact (branch active)', () =>
    exportSession(file, { format: 'html', redact: true, write: discard }),
  )
  await measure('export html --out (branch active)', () =>
    exportSession(file, { format: 'html', out: join(dir, 'out.html') }),
  )
  rmSync(file)
}
rmSync(dir, { recursive: true, force: true })
console.log(
  `load average after: ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}`,
)
