// What handing one small read to libuv's threadpool costs the event loop's own thread, measured around the
// `fs.read` call itself (the call returns at once; the read runs on a pool thread). The writer's check
// before each write is two such reads (the file's first line and its last bytes) after the previous write
// returned: on the 2-core VM, waking a pool thread that sleeps on another vCPU costs the caller tens of
// microseconds, and a second read issued right behind the first about three times that, up to
// milliseconds (docs/benchmarks.md, "Stop 33"; docs/big-records.md, "One read at a time"). Modes: `one`
// (one read only), `two` (both at once, as the writer did until stop 39), `later` (the second from a
// setImmediate, after the poll phase), `after` (the second once the first has completed, as the writer
// does now).
//
// Run: node bench/threadpool-submit.ts one|two|later|after   (or through tsx, as the other benches)
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const mode = process.argv[2] ?? 'two'
if (!['one', 'two', 'later', 'after'].includes(mode))
  throw new TypeError(`Expected one, two, later or after, got ${mode}`)
const CYCLES = 3_000
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sessiontape-submit-'))
const file = path.join(dir, 'file.bin')
fs.writeFileSync(file, Buffer.alloc(20 * 1024 * 1024, 0x61))
const fd = fs.openSync(file, 'r+')
const chunk = Buffer.alloc(400 * 1024, 0x62)
const first = new Float64Array(CYCLES)
const second = new Float64Array(CYCLES)
const micros = (from: bigint) => Number(process.hrtime.bigint() - from) / 1000

let cycle = 0
await new Promise<void>((done) => {
  const next = (): void => {
    if (cycle === CYCLES) return done()
    // A write, as the writer's, then the check's reads once it returned.
    fs.write(fd, chunk, 0, chunk.length, 0, () => {
      const at = cycle
      let pending = mode === 'one' ? 1 : 2
      const settled = (): void => {
        if (--pending > 0) return
        cycle++
        setImmediate(next)
      }
      // The first line, then the last bytes (the writer's order).
      const readEnd = (): void => {
        const begun = process.hrtime.bigint()
        fs.read(fd, Buffer.allocUnsafe(65), 0, 65, 10_000_000, settled)
        second[at] = micros(begun)
      }
      const start = process.hrtime.bigint()
      const firstDone = mode === 'after' ? () => (readEnd(), settled()) : settled
      fs.read(fd, Buffer.allocUnsafe(256), 0, 256, 0, firstDone)
      first[at] = micros(start)
      if (mode === 'two') readEnd()
      if (mode === 'later') setImmediate(readEnd)
    })
  }
  next()
})
fs.closeSync(fd)
fs.rmSync(dir, { recursive: true, force: true })

const summary = (values: Float64Array): string => {
  const sorted = Float64Array.from(values).sort()
  const at = (q: number) => sorted[Math.floor((sorted.length - 1) * q)]!.toFixed(1)
  return `p50 ${at(0.5)} µs, p90 ${at(0.9)} µs, p99 ${at(0.99)} µs, max ${at(1)} µs, sum ${(values.reduce((a, b) => a + b, 0) / 1000).toFixed(1)} ms`
}
console.log(`${mode}: ${CYCLES} cycles on ${os.cpus().length} CPUs, Node ${process.version}`)
console.log(`first read's fs.read() call: ${summary(first)}`)
if (mode !== 'one') console.log(`second read's fs.read() call: ${summary(second)}`)
