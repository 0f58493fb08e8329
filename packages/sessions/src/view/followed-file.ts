/**
 * The file a live page follows, held open. Reading from where the last read stopped is right only while the
 * path still names the same file, holding the same bytes up to there. Three things say it does not:
 *
 * - `replaced`: the path names another file (device or inode differ): a rename over it, a rotation;
 * - `truncated`: the held file is shorter than where reading had got to;
 * - `rewritten`: its first bytes (up to HEAD_BYTES, where a session's first record and id are) changed.
 *
 * Reads go through `readPath`, which names the held file itself (`/dev/fd/<n>`, where the system has it),
 * never whatever the path names by then: a file renamed over the path between a check and a read is not
 * read as more of this one. What no check can see: a rewrite in place that keeps the size at least as large
 * and the first bytes equal (another copy of the same session, diverging later).
 */
import { existsSync } from 'node:fs'
import { open, stat, type FileHandle } from 'node:fs/promises'
import { createHash } from 'node:crypto'

/** First bytes compared: a session's first record (its id, its start) is within them. */
const HEAD_BYTES = 4096

/** `continued`: the session gained or lost a file (a segment: recorder/src/format/segments.ts). */
export type FileChange = 'replaced' | 'truncated' | 'rewritten' | 'continued'

/** Whether `/dev/fd/<n>` opens a descriptor's own file (Linux, macOS, the BSDs); elsewhere the path is read. */
let devFd: boolean | undefined

export class FollowedFile {
  readonly path: string
  /** Held for as long as the file is followed: its inode cannot be reused, and it can be read by number. */
  readonly #handle: FileHandle
  readonly #dev: number
  readonly #ino: number
  /** The first bytes as first read; grown (once checked equal) while the file is shorter than HEAD_BYTES. */
  #head: Buffer

  private constructor(path: string, handle: FileHandle, dev: number, ino: number, head: Buffer) {
    this.path = path
    this.#handle = handle
    this.#dev = dev
    this.#ino = ino
    this.#head = head
  }

  static async open(path: string): Promise<FollowedFile> {
    const handle = await open(path, 'r')
    try {
      const { dev, ino } = await handle.stat()
      return new FollowedFile(path, handle, dev, ino, await readHead(handle))
    } catch (error) {
      await handle.close()
      throw error
    }
  }

  /** A path that opens the held file whatever the path names now. */
  get readPath(): string {
    devFd ??= existsSync('/dev/fd')
    return devFd ? `/dev/fd/${this.#handle.fd}` : this.path
  }

  /**
   * Identifies the held file for a page built from it: a digest of device, inode and the first bytes read,
   * and how many there were (`<digest>.<bytes>`). The page's stream checks it with {@link matches}.
   */
  get tag(): string {
    return `${headDigest(this.#dev, this.#ino, this.#head)}.${this.#head.length}`
  }

  /**
   * Whether `tag` was made from this file, when it was as long as it is now or shorter: a file that grew
   * between the page and its stream still matches.
   */
  matches(tag: string): boolean {
    const dot = tag.lastIndexOf('.')
    const length = Number(tag.slice(dot + 1))
    if (dot === -1 || !Number.isInteger(length) || length < 0 || length > this.#head.length) return false
    return headDigest(this.#dev, this.#ino, this.#head.subarray(0, length)) === tag.slice(0, dot)
  }

  async size(): Promise<number> {
    return (await this.#handle.stat()).size
  }

  /** What changed since the file was opened, `offset` being where reading has got to; undefined: nothing. */
  async change(offset: number): Promise<FileChange | undefined> {
    try {
      const now = await stat(this.path)
      if (now.dev !== this.#dev || now.ino !== this.#ino) return 'replaced'
    } catch (error) {
      // Gone from its path (deleted, or renamed away): what the page shows is still this file's, and the
      // held descriptor still reads it. A file put at the path later is `replaced`.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
    if ((await this.size()) < offset) return 'truncated'
    const head = await readHead(this.#handle)
    const common = Math.min(head.length, this.#head.length)
    if (!head.subarray(0, common).equals(this.#head.subarray(0, common))) return 'rewritten'
    if (head.length > this.#head.length) this.#head = head
    return undefined
  }

  close(): Promise<void> {
    return this.#handle.close()
  }
}

function headDigest(dev: number, ino: number, head: Buffer): string {
  return createHash('sha256').update(`${dev}:${ino}:`).update(head).digest('base64url').slice(0, 22)
}

async function readHead(handle: FileHandle): Promise<Buffer> {
  const buffer = Buffer.alloc(HEAD_BYTES)
  let filled = 0
  for (;;) {
    const { bytesRead } = await handle.read(buffer, filled, HEAD_BYTES - filled, filled)
    if (bytesRead === 0) break
    filled += bytesRead
    if (filled === HEAD_BYTES) break
  }
  return buffer.subarray(0, filled)
}

/** Whether a file's last byte is not a newline (a write in progress); a Gemini JSON document never is. */
export async function lastLineOpen(file: string): Promise<boolean> {
  if (file.endsWith('.json')) return false
  const handle = await open(file, 'r')
  try {
    const { size } = await handle.stat()
    if (size === 0) return false
    const last = Buffer.alloc(1)
    await handle.read(last, 0, 1, size - 1)
    return last[0] !== 0x0a
  } finally {
    await handle.close()
  }
}
