import { appendFile, truncate, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { inspectTailSync } from '../src/index.js'
import { makeChain, makeRecord, toJsonl, withTempDir } from './helpers/records.js'

describe('inspectTailSync finds the last complete valid record from the end of the file', () => {
  it('reports a missing file as not existing', async () => {
    await withTempDir((dir) => {
      expect(inspectTailSync(path.join(dir, 'none.jsonl'))).toEqual({
        exists: false,
        size: 0,
        validLength: 0,
        lastRecord: null,
        tornBytes: 0,
        reachedStart: true,
      })
    })
  })

  it('keeps a clean file whole', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      const text = toJsonl(makeChain(3))
      await writeFile(file, text)
      const tail = inspectTailSync(file)
      expect(tail).toMatchObject({ exists: true, size: text.length, validLength: text.length, tornBytes: 0 })
      expect(tail.lastRecord?.uuid).toBe('u2')
    })
  })

  const cleanLength = toJsonl(makeChain(3)).length
  it.for([
    { name: 'a partial last line', tail: '{"uuid":"u3","parentUuid":"u2","sessionId":"s1","ti' },
    { name: 'a NUL run without newline', tail: '\0'.repeat(700) },
    { name: 'a garbage line after the last record', tail: 'not json at all\n{"half":' },
    { name: 'a NUL run, then a newline-terminated garbage line', tail: '\0\0\0\0\nxx\n' },
  ])('counts $name as torn bytes', async ({ tail }) => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      await writeFile(file, toJsonl(makeChain(3)) + tail)
      const found = inspectTailSync(file)
      expect(found.validLength).toBe(cleanLength)
      expect(found.tornBytes).toBe(Buffer.byteLength(tail))
      expect(found.lastRecord?.uuid).toBe('u2')
    })
  })

  it('keeps a complete record that misses only its newline: nothing is torn, it is the last record', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      const tail = JSON.stringify(makeRecord(3, 'u2'))
      await writeFile(file, toJsonl(makeChain(3)) + tail)
      const found = inspectTailSync(file)
      expect(found.validLength).toBe(cleanLength + Buffer.byteLength(tail))
      expect(found.tornBytes).toBe(0)
      expect(found.lastRecord?.uuid).toBe('u3')
    })
  })

  it('takes the last record of a glued last line', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      const [a, b, c] = makeChain(3)
      const text = `${JSON.stringify(a)}\n{"uuid":"torn","ty${JSON.stringify(b)}${JSON.stringify(c)}\n`
      await writeFile(file, text)
      const found = inspectTailSync(file)
      expect(found.lastRecord?.uuid).toBe('u2')
      expect(found.tornBytes).toBe(0)
    })
  })

  it('widens its window past a last record bigger than the first window', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      const big = makeRecord(1, 'u0', { blob: 'x'.repeat(300_000) })
      await writeFile(file, toJsonl([makeRecord(0, null), big]) + '{"torn')
      const found = inspectTailSync(file)
      expect(found.lastRecord?.uuid).toBe('u1')
      expect(found.tornBytes).toBe(6)
    })
  })

  it('treats the whole file as torn when it holds no valid record at all', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      await writeFile(file, 'garbage\n{"torn')
      expect(inspectTailSync(file)).toMatchObject({
        validLength: 0,
        tornBytes: 14,
        lastRecord: null,
        reachedStart: true,
      })
    })
  })

  it('stops at maxBytes and then keeps every complete line, counting only the unterminated bytes', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      const garbage = 'y'.repeat(10_000) + '\n'
      await writeFile(file, toJsonl(makeChain(2)) + garbage.repeat(20) + 'torn')
      const found = inspectTailSync(file, { maxBytes: 50_000 })
      expect(found).toMatchObject({ lastRecord: null, tornBytes: 4, reachedStart: false })
    })
  })

  it('reads a bounded window on a file much larger than the window', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      await writeFile(file, 'z'.repeat(2_000_000) + '\n')
      await appendFile(file, toJsonl(makeChain(2)))
      // maxBytes far below the file size still finds the record: only the tail was needed.
      expect(inspectTailSync(file, { maxBytes: 64 * 1024 }).lastRecord?.uuid).toBe('u1')
    })
  })

  // maxBytes = one window, so an off-by-one at the window's first line cannot hide behind a wider retry.
  const WINDOW = 64 * 1024
  it.for([-2, -1, 0, 1, 2])(
    'judges the first line of a window that starts %i byte(s) from the last record line exactly',
    async (offset) => {
      await withTempDir(async (dir) => {
        const file = path.join(dir, 's1.jsonl')
        const root = `${JSON.stringify(makeRecord(0, null))}\n`
        const torn = '{"uuid":"u2","pa'
        // Multi-byte text ('é' is 2 bytes), padded with ASCII to the exact byte length wanted.
        const empty = `${JSON.stringify(makeRecord(1, 'u0', { text: '' }))}\n`
        const want = WINDOW + offset - torn.length - Buffer.byteLength(empty)
        const text = 'é'.repeat(Math.floor(want / 2)) + 'a'.repeat(want % 2)
        const last = `${JSON.stringify(makeRecord(1, 'u0', { text }))}\n`
        await writeFile(file, root + last + torn)
        // The window (the last WINDOW bytes) starts `offset` bytes after the start of the `u1` line.
        expect(Buffer.byteLength(last) + torn.length - WINDOW).toBe(offset)
        const found = inspectTailSync(file, { maxBytes: WINDOW })
        const size = Buffer.byteLength(root + last) + torn.length
        if (offset <= 0) {
          expect(found).toMatchObject({
            validLength: size - torn.length,
            tornBytes: torn.length,
            reachedStart: true,
          })
          expect(found.lastRecord).toEqual(makeRecord(1, 'u0', { text }))
        } else {
          // Its line starts before the window: not seen whole, so no record, and only the unterminated bytes are torn.
          expect(found).toMatchObject({ lastRecord: null, tornBytes: torn.length, reachedStart: false })
        }
      })
    },
  )

  it('reads only the end of a 64 GiB (sparse) file', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      // A hole reads as NUL bytes: a whole-file read would take minutes and time the test out.
      await writeFile(file, '')
      await truncate(file, 64 * 1024 ** 3)
      await appendFile(file, '\n' + toJsonl(makeChain(2)) + '{"torn')
      const found = inspectTailSync(file)
      expect(found.lastRecord?.uuid).toBe('u1')
      expect(found.tornBytes).toBe(6)
    })
  })

  it.for([0, -1, Number.NaN, Infinity])('rejects maxBytes %s', (maxBytes) => {
    expect(() => inspectTailSync('x', { maxBytes })).toThrow(
      /Expected `maxBytes` to be a positive finite number/,
    )
  })
})
