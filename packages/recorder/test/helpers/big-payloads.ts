import fs from 'node:fs'

/**
 * Payloads with strings long enough to be held by reference and escaped as they are written (64 Ki code
 * units or more), shaped like what agents record: a base64 screenshot, a file read by a tool (text with
 * quotes, backslashes, newlines, controls, U+2028/2029, non-ASCII, emoji, lone surrogates), command output.
 */
export function bigPayload(i: number, size = 300_000): Record<string, unknown> {
  const unit = `line ${i} « café » "quoted" \\ back\ttab\u0001 \u2028\u2029 日本語 😀 \ud800 x\udc00\n`
  const text = unit.repeat(Math.ceil(size / unit.length)).slice(0, size)
  return {
    toolUseId: `tool-${i}`,
    output: { mimeType: 'image/png', base64: Buffer.alloc(Math.ceil((size * 3) / 4), i).toString('base64') },
    content: [{ type: 'text', text }, { type: 'text', text: 'short' }, undefined, null],
    skipped: undefined,
    exitCode: -0,
    ratio: Number.NaN,
  }
}

/** What the recorder must write for a record: its envelope, then JSON.stringify of its data, byte for byte. */
export function expectedLine(record: Record<string, unknown>, data: object): string {
  const { uuid, parentUuid, sessionId, timestamp, type, v } = record
  return `${JSON.stringify({ uuid, parentUuid, sessionId, timestamp, type, v, ...data })}\n`
}

/** The transcript's lines, as raw text (newline kept), without parsing anything into strings. */
export function rawLines(filePath: string): string[] {
  const text = fs.readFileSync(filePath, 'utf8')
  return text.split(/(?<=\n)/)
}
