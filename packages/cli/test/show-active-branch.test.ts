import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runInProcess } from './helpers/cli.js'
import { writeCorruptTranscript } from '../../recorder/test/helpers/corrupt-transcript.js'
import { makeRecord, toJsonl, withTempDir } from '../../recorder/test/helpers/records.js'

describe('sessiontape show prints the active branch with problems flagged inline', () => {
  it('prints records root → leaf, each problem just before the record at or after its line', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      await writeCorruptTranscript(file)
      const { code, stdout } = await runInProcess('show', '--raw', file)
      expect(code).toBe(0)
      const marks = stdout
        .split('\n')
        .filter((l) => l.startsWith('──') || l.startsWith('⚠'))
        .map((l) => (l.startsWith('──') ? `record ${l.split(' · ').at(-1)}` : `problem ${l.split(' · ')[1]}`))
      expect(marks).toEqual([
        'record u0',
        'record u1',
        'problem glued',
        'record u3',
        'problem nul-run',
        'problem glued',
        'record u4',
        'record u5',
        'problem orphan',
        'problem not-an-object',
        'record u7',
        'problem torn-tail',
      ])
      expect(stdout).toContain('   Refactor the parser\n')
      expect(stdout).toContain('session s1 · 6 record(s) on the active branch of 7 in the file · leaf u7')
    })
  })

  it('shows a missing parent as an explicit gap at the top', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      await writeFile(file, toJsonl([makeRecord(0, null), makeRecord(2, 'u1'), makeRecord(3, 'u2')]))
      const { stdout } = await runInProcess('show', '--raw', file)
      expect(stdout).toContain(
        '⚠ gap · missing-parent · history before "u2" is lost: its parent "u1" is not in the transcript',
      )
      expect(stdout).not.toContain('· u0\n')
    })
  })

  it('--leaf picks another branch, --tree shows every record, --json gives the structure', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      await writeFile(
        file,
        toJsonl([makeRecord(0, null), makeRecord(1, 'u0'), makeRecord(2, 'u0'), makeRecord(3, 'u2')]),
      )
      const leaf = await runInProcess('show', '--leaf', 'u1', file)
      expect(leaf.stdout).toContain('· u1\n')
      expect(leaf.stdout).not.toContain('· u3\n')
      const tree = await runInProcess('show', '--tree', file)
      expect(tree.stdout).toContain('* u0 ')
      expect(tree.stdout).toContain('\n  - u1 ')
      expect(tree.stdout).toContain('\n  * u2 ')
      expect(tree.stdout).toContain('\n  * u3 ')
      const json = JSON.parse((await runInProcess('show', '--json', file)).stdout) as {
        leafUuid: string
        records: { uuid: string }[]
        gaps: unknown[]
        problems: unknown[]
      }
      expect(json.leafUuid).toBe('u3')
      expect(json.records.map((r) => r.uuid)).toEqual(['u0', 'u2', 'u3'])
      expect(json.gaps).toEqual([])
      expect(json.problems).toEqual([])
      const unknownLeaf = await runInProcess('show', '--leaf', 'nope', file)
      expect(unknownLeaf.code).toBe(2)
      expect(unknownLeaf.stderr).toContain('no record with uuid "nope"')
    })
  })
})
