import { execFile } from 'node:child_process'
import { createRequire } from 'node:module'
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import type * as ProperLockfile from 'proper-lockfile'
import { describe, expect, it } from 'vitest'
import { readSession } from '@sessiontape/recorder'
import { runCli, runInProcess } from './helpers/cli.js'
import {
  CORRUPT_LINES,
  CORRUPT_TAIL,
  writeCorruptTranscript,
} from '../../recorder/test/helpers/corrupt-transcript.js'
import { withTempDir } from '../../recorder/test/helpers/records.js'
import { writeTranscript } from '../../recorder/test/helpers/sessions.js'

const lockfile = createRequire(import.meta.url)('proper-lockfile') as typeof ProperLockfile

/** The files a shipper tailing `<dir>/*` sees, and what is in the sidecar directory. */
async function layout(dir: string): Promise<{ top: string[]; sidecars: string[] }> {
  const top = (await readdir(dir)).sort()
  const sidecars = top.includes('.sessiontape') ? (await readdir(path.join(dir, '.sessiontape'))).sort() : []
  return { top, sidecars }
}

describe('sessiontape repair never rewrites a transcript: a torn tail is repaired append-only, other damage into a new name', () => {
  it('writes a repaired copy to .sessiontape/<name>.repaired-<time>, leaves the transcript byte-identical and says how to switch', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      const original = await writeCorruptTranscript(file)
      const before = await readSession(file)
      const { code, stdout } = await runInProcess('repair', file)
      expect(code).toBe(0)
      expect(stdout).toContain(
        `${file}: repaired 5 problem(s) into a new copy (the transcript is not changed), kept 7 record(s)`,
      )
      expect(stdout).toContain('not changed: ⚠ line 6 · orphan')
      expect(await readFile(file, 'utf8')).toBe(original)
      // Only transcripts in the top level, so `*.jsonl` and `*` globs ship nothing else.
      const { top, sidecars } = await layout(dir)
      expect(top).toEqual(['.sessiontape', 's1.jsonl'])
      expect(sidecars).toHaveLength(1)
      expect(sidecars[0]).toMatch(/^s1\.jsonl\.repaired-\d{8}T\d{9}Z$/)
      const copy = path.join(dir, '.sessiontape', sidecars[0]!)
      expect(stdout).toContain(`  repaired copy: ${copy}\n`)
      const after = await readSession(copy)
      expect(after.records).toEqual(before.records)
      expect(after.problems.map((p) => p.kind)).toEqual(['orphan'])
      // Intact lines are kept exactly as they were; the copy has the transcript's mode.
      const repaired = await readFile(copy, 'utf8')
      for (const index of [0, 1, 5, 7]) expect(repaired).toContain(`${CORRUPT_LINES[index]}\n`)
      expect(repaired.endsWith('\n')).toBe(true)
      expect((await stat(copy)).mode & 0o777).toBe((await stat(file)).mode & 0o777)

      // The printed commands switch to the copy and keep the original in .sessiontape.
      const commands = stdout
        .split('\n')
        .filter((line) => line.startsWith('    mv -n -- '))
        .map((line) => line.trim())
      expect(commands).toHaveLength(2)
      await promisify(execFile)('sh', ['-c', commands.join(' && ')])
      expect(await readFile(file, 'utf8')).toBe(repaired)
      const kept = (await layout(dir)).sidecars.find((name) => name.startsWith('s1.jsonl.orig-'))!
      expect(await readFile(path.join(dir, '.sessiontape', kept), 'utf8')).toBe(original)
      expect((await layout(dir)).top).toEqual(['.sessiontape', 's1.jsonl'])
    })
  })

  it('repairs a torn tail and nothing else in place, append-only: the old bytes are a prefix, a `recovered` record follows', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      const intact = `${CORRUPT_LINES[0]}\n${CORRUPT_LINES[1]}\n`
      await writeFile(file, `${intact}${CORRUPT_TAIL}`)
      const { code, stdout } = await runInProcess('repair', file)
      expect(code).toBe(0)
      expect(stdout).toContain('repaired 1 problem(s) in place, append-only')
      const bytes = await readFile(file, 'utf8')
      expect(bytes.startsWith(`${intact}${CORRUPT_TAIL}\n`)).toBe(true)
      const appended = JSON.parse(bytes.slice(`${intact}${CORRUPT_TAIL}\n`.length)) as Record<string, unknown>
      expect(appended).toMatchObject({
        type: 'recovered',
        parentUuid: 'u1',
        reason: 'torn-tail',
        tornOffset: intact.length,
        tornLength: CORRUPT_TAIL.length,
      })
      expect(stdout).toContain(`appended: a \`recovered\` record (${String(appended.uuid)})`)
      const read = await readSession(file)
      expect(read.problems).toEqual([])
      expect(read.records.map((r) => r.type)).toEqual(['message', 'message', 'recovered'])
      // Nothing else was made: the lock came and went inside .sessiontape.
      expect(await layout(dir)).toEqual({ top: ['.sessiontape', 's1.jsonl'], sidecars: [] })
      // Repairing again finds nothing to do.
      expect((await runInProcess('repair', file)).stdout).toContain('nothing to repair')
    })
  })

  it('a torn tail of whitespace is appended to the same way, so a resume has nothing left to repair', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      await writeFile(file, `${CORRUPT_LINES[0]}\n  `)
      expect((await runInProcess('repair', file)).code).toBe(0)
      expect((await readFile(file, 'utf8')).startsWith(`${CORRUPT_LINES[0]}\n  \n{"uuid":`)).toBe(true)
      expect((await readSession(file)).problems).toEqual([])
    })
  })

  it('--out writes the copy there (a torn tail too) and leaves the original untouched; an existing --out is refused', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      const original = await writeCorruptTranscript(file)
      const out = path.join(dir, 'fixed.jsonl')
      expect((await runInProcess('repair', '--out', out, file)).code).toBe(0)
      expect(await readFile(file, 'utf8')).toBe(original)
      expect((await readSession(out)).problems.map((p) => p.kind)).toEqual(['orphan'])
      const again = await runInProcess('repair', '--out', out, file)
      expect(again.code).toBe(2)
      expect(again.stderr).toContain(`${out} already exists`)
      const torn = path.join(dir, 'torn.jsonl')
      await writeFile(torn, `${CORRUPT_LINES[0]}\n${CORRUPT_TAIL}`)
      const tornOut = path.join(dir, 'torn-fixed.jsonl')
      expect((await runInProcess('repair', '--out', tornOut, torn)).code).toBe(0)
      expect(await readFile(torn, 'utf8')).toBe(`${CORRUPT_LINES[0]}\n${CORRUPT_TAIL}`)
      expect(await readFile(tornOut, 'utf8')).toBe(`${CORRUPT_LINES[0]}\n`)
      expect((await readdir(dir)).sort()).toEqual([
        'fixed.jsonl',
        's1.jsonl',
        'torn-fixed.jsonl',
        'torn.jsonl',
      ])
    })
  })

  it('--dry-run and a clean transcript write nothing', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      await writeCorruptTranscript(file)
      const dry = await runInProcess('repair', '--dry-run', '--json', file)
      expect(JSON.parse(dry.stdout)).toMatchObject({ changed: true, action: 'copied', outPath: null })
      await writeFile(path.join(dir, 'torn.jsonl'), `${CORRUPT_LINES[0]}\n${CORRUPT_TAIL}`)
      const dryTorn = await runInProcess('repair', '--dry-run', '--json', path.join(dir, 'torn.jsonl'))
      expect(JSON.parse(dryTorn.stdout)).toMatchObject({
        changed: true,
        action: 'appended',
        recoveredUuid: null,
      })
      await writeTranscript(dir, 'clean', 2)
      const clean = await runInProcess('repair', path.join(dir, 'clean.jsonl'))
      expect(clean.stdout).toContain('nothing to repair (2 record(s)); no file written')
      expect(await readFile(path.join(dir, 'torn.jsonl'), 'utf8')).toBe(
        `${CORRUPT_LINES[0]}\n${CORRUPT_TAIL}`,
      )
      expect((await layout(dir)).sidecars).toEqual([])
      expect((await readdir(dir)).filter((n) => n !== '.sessiontape').sort()).toEqual([
        'clean.jsonl',
        's1.jsonl',
        'torn.jsonl',
      ])
    })
  })

  it('refuses (exit 1) while a live recorder holds the session, and writes nothing', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      const original = await writeCorruptTranscript(file)
      const lockfilePath = path.join(dir, '.sessiontape', 's1.jsonl.lock')
      await mkdir(path.dirname(lockfilePath), { mode: 0o700 })
      const release = await lockfile.lock(file, {
        realpath: false,
        lockfilePath,
        stale: 10_000,
        onCompromised: () => {},
      })
      try {
        const { code, stderr } = await runCli('repair', file)
        expect(code).toBe(1)
        expect(stderr).toContain('is being recorded by a live process')
        expect(stderr).toContain(lockfilePath)
        expect(await readFile(file, 'utf8')).toBe(original)
        expect((await layout(dir)).sidecars).toEqual(['s1.jsonl.lock'])
      } finally {
        await release()
      }
    })
  })

  it('leaves an unreadable-but-complete middle line out of the copy', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      await writeFile(file, `${CORRUPT_LINES[0]}\nnot json\n${CORRUPT_LINES[1]}\n`)
      await runInProcess('repair', file)
      const [copy] = (await layout(dir)).sidecars
      expect(await readFile(path.join(dir, '.sessiontape', copy!), 'utf8')).toBe(
        `${CORRUPT_LINES[0]}\n${CORRUPT_LINES[1]}\n`,
      )
    })
  })

  it('copies bytes, not decoded text: invalid UTF-8 in an intact record survives exactly', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      const [head, rest] = CORRUPT_LINES[0]!.split('Refactor')
      // A record whose text holds a byte that is not UTF-8, a garbage line of such bytes, and a torn
      // tail that ends in the first byte of 'é'.
      const intact = Buffer.concat([
        Buffer.from(head!),
        Buffer.from([0xff]),
        Buffer.from(`Refactor${rest!}\n`),
      ])
      const garbage = Buffer.from([0x66, 0xff, 0xfe, 0x0a])
      const torn = Buffer.concat([Buffer.from('{"uuid":"u9","text":"'), Buffer.from('é').subarray(0, 1)])
      const original = Buffer.concat([intact, garbage, torn])
      await writeFile(file, original)
      expect((await runInProcess('repair', file)).code).toBe(0)
      expect(await readFile(file)).toEqual(original)
      const [copy] = (await layout(dir)).sidecars
      expect(await readFile(path.join(dir, '.sessiontape', copy!))).toEqual(intact)
    })
  })
})
