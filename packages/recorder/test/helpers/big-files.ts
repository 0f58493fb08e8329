import { randomBytes } from 'node:crypto'
import { open } from 'node:fs/promises'
import { FORMAT_VERSION } from '../../src/format/record-format.js'

const CHUNK = 8 * 1024 * 1024

/** Writes `bytes` of random bytes (newlines included, by chance, about one every 256 bytes). */
export async function writeRandomFile(file: string, bytes: number): Promise<void> {
  const handle = await open(file, 'w')
  try {
    for (let written = 0; written < bytes; written += CHUNK) {
      await handle.write(randomBytes(Math.min(CHUNK, bytes - written)))
    }
  } finally {
    await handle.close()
  }
}

/** Writes a valid chained transcript of about `bytes` bytes, in ~1 KB records like a chat session. */
export async function writeValidTranscript(file: string, bytes: number): Promise<number> {
  const handle = await open(file, 'w')
  const padding = 'lorem ipsum dolor sit amet '.repeat(34)
  let written = 0
  let count = 0
  try {
    while (written < bytes) {
      let chunk = ''
      while (chunk.length < CHUNK && written + chunk.length < bytes) {
        const uuid = `00000000-0000-4000-8000-${count.toString(16).padStart(12, '0')}`
        const parent =
          count === 0 ? 'null' : `"00000000-0000-4000-8000-${(count - 1).toString(16).padStart(12, '0')}"`
        chunk += `{"uuid":"${uuid}","parentUuid":${parent},"sessionId":"big","timestamp":"2026-01-01T00:00:00.000Z","type":"message","v":${FORMAT_VERSION},"seq":${count},"text":"${padding}"}\n`
        count++
      }
      await handle.write(chunk)
      written += Buffer.byteLength(chunk)
    }
  } finally {
    await handle.close()
  }
  return count
}
