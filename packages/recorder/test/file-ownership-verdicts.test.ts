import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { fileOwnership, FORMAT_VERSION, ownershipOfPrefix } from '../src/index.js'
import { makeChain, toJsonl, withTempDir } from './helpers/records.js'

const ours = toJsonl(makeChain(2))

describe('fileOwnership says whether a file is ours from its first bytes', () => {
  it.for([
    { name: 'our transcript', text: ours, verdict: 'ours' },
    { name: 'empty', text: '', verdict: 'empty' },
    { name: 'a crash during the first write', text: '{"uuid":"u0","parentU', verdict: 'ours' },
    { name: 'just the first bytes of a record', text: '{"uu', verdict: 'ours' },
    { name: 'NUL bytes, then our records (power cut)', text: `${'\0'.repeat(100)}${ours}`, verdict: 'ours' },
    { name: 'only NUL bytes', text: '\0'.repeat(100), verdict: 'unknown' },
    {
      name: 'Claude Code (parentUuid first, no v)',
      text: '{"parentUuid":null,"sessionId":"x","type":"user","uuid":"a","timestamp":"t"}\n',
      verdict: 'foreign',
    },
    { name: 'another key order', text: '{"uuid":"a","type":"x","parentUuid":null}\n', verdict: 'unknown' },
    {
      name: 'a newer format version',
      text: ours.replace(`"v":${FORMAT_VERSION}`, '"v":99'),
      verdict: 'foreign',
    },
    { name: 'plain text', text: 'hello\n', verdict: 'foreign' },
  ])('$name → $verdict', async ({ text, verdict }) => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 'f.jsonl')
      await writeFile(file, text)
      const result = await fileOwnership(file)
      expect(result.verdict).toBe(verdict)
      expect(result.reason.length).toBeGreaterThan(0)
      const bytes = Buffer.from(text)
      expect(ownershipOfPrefix(bytes, bytes.length)).toEqual(result)
    })
  })
})
