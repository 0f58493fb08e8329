import { createRequire } from 'node:module'
import { readdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type * as ProperLockfile from 'proper-lockfile'
import { describe, expect, it } from 'vitest'
import { readSession } from '../src/index.js'
import { runCli, runInProcess } from './helpers/cli.js'
import { CORRUPT_LINES, CORRUPT_TAIL, writeCorruptTranscript } from './helpers/corrupt-transcript.js'
import { withTempDir } from './helpers/records.js'
import { writeTranscript } from './helpers/sessions.js'

const lockfile = createRequire(import.meta.url)('proper-lockfile') as typeof ProperLockfile

describe('sessiontape repair writes a repaired copy atomically and never edits without a backup', () => {
  it('replaces the transcript with a repaired copy, keeps a byte-identical backup and quarantines the damage', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      const original = await writeCorruptTranscript(file)
      const before = await readSession(file)
      const { code, stdout } = await runInProcess('repair', file)
      expect(code).toBe(0)
      expect(stdout).toContain(`${file}: repaired 5 problem(s), kept 7 record(s)`)
      expect(stdout).toContain('not changed: ⚠ line 6 · orphan')
      const names = await readdir(dir)
      const backup = names.find((n) => n.startsWith('s1.jsonl.bak-'))!
      const quarantine = names.find((n) => n.startsWith('s1.jsonl.torn-'))!
      expect(await readFile(path.join(dir, backup), 'utf8')).toBe(original)
      // The quarantine holds every damaged line byte for byte, then the torn tail.
      expect(await readFile(path.join(dir, quarantine), 'utf8')).toBe(
        [CORRUPT_LINES[2], CORRUPT_LINES[3], CORRUPT_LINES[4], CORRUPT_LINES[6]]
          .map((l) => `${l}\n`)
          .join('') + CORRUPT_TAIL,
      )
      const after = await readSession(file)
      expect(after.records).toEqual(before.records)
      expect(after.problems.map((p) => p.kind)).toEqual(['orphan'])
      // Intact lines are kept exactly as they were.
      const repaired = await readFile(file, 'utf8')
      for (const index of [0, 1, 5, 7]) expect(repaired).toContain(`${CORRUPT_LINES[index]}\n`)
      expect(repaired.endsWith('\n')).toBe(true)
      expect(names.filter((n) => n.startsWith('.'))).toEqual([])
    })
  })

  it('--out writes the copy elsewhere and leaves the original untouched; an existing --out is refused', async () => {
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
    })
  })

  it('--dry-run and a clean transcript write nothing', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      await writeCorruptTranscript(file)
      const dry = await runInProcess('repair', '--dry-run', '--json', file)
      expect(JSON.parse(dry.stdout)).toMatchObject({ changed: true, backupPath: null, quarantinePath: null })
      await writeTranscript(dir, 'clean', 2)
      const clean = await runInProcess('repair', path.join(dir, 'clean.jsonl'))
      expect(clean.stdout).toContain('nothing to repair (2 record(s)); no file written')
      expect((await readdir(dir)).sort()).toEqual(['clean.jsonl', 's1.jsonl'])
    })
  })

  it('refuses (exit 1) to replace a transcript that a live recorder holds', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      const original = await writeCorruptTranscript(file)
      const release = await lockfile.lock(file, { realpath: false, stale: 10_000, onCompromised: () => {} })
      try {
        const { code, stderr } = await runCli('repair', file)
        expect(code).toBe(1)
        expect(stderr).toContain('is being recorded by a live process')
        expect(await readFile(file, 'utf8')).toBe(original)
      } finally {
        await release()
      }
    })
  })

  it('keeps an unreadable-but-complete middle line in the quarantine, not in the transcript', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      await writeFile(file, `${CORRUPT_LINES[0]}\nnot json\n${CORRUPT_LINES[1]}\n`)
      await runInProcess('repair', file)
      expect(await readFile(file, 'utf8')).toBe(`${CORRUPT_LINES[0]}\n${CORRUPT_LINES[1]}\n`)
    })
  })

  it('quarantines whitespace after the last newline, so a resume has nothing left to repair', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      await writeFile(file, `${CORRUPT_LINES[0]}\n  `)
      expect((await runInProcess('repair', file)).code).toBe(0)
      expect(await readFile(file, 'utf8')).toBe(`${CORRUPT_LINES[0]}\n`)
      const quarantine = (await readdir(dir)).find((n) => n.startsWith('s1.jsonl.torn-'))!
      expect(await readFile(path.join(dir, quarantine), 'utf8')).toBe('  ')
    })
  })

  it('copies bytes, not decoded text: invalid UTF-8 and a multi-byte character cut by the crash survive exactly', async () => {
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
      await writeFile(file, Buffer.concat([intact, garbage, torn]))
      expect((await runInProcess('repair', file)).code).toBe(0)
      expect(await readFile(file)).toEqual(intact)
      const quarantine = (await readdir(dir)).find((n) => n.startsWith('s1.jsonl.torn-'))!
      expect(await readFile(path.join(dir, quarantine))).toEqual(Buffer.concat([garbage, torn]))
    })
  })
})
