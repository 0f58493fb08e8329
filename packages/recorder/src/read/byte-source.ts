import type { FileHandle } from 'node:fs/promises'
import type { Decompress } from 'fzstd'
import { openRegularFile } from './regular-file.js'

export { readWholeFile } from './regular-file.js'

/**
 * The bytes of a transcript, in order, whatever is on disk: the file itself, or the decompressed content of
 * a `.zst` file (Codex CLI compresses closed rollouts, `rollout-….jsonl.zst`). Offsets a reader reports for
 * a compressed file are offsets in its decompressed content.
 */
export interface ByteSource {
  /** Reads up to `length` bytes into `buffer` at `offset`; 0 at the end. */
  read(buffer: Buffer, offset: number, length: number): Promise<number>
  /** Set once the end was reached, when the content could not be read to its end (a cut or corrupt `.zst`). */
  readonly damage: SourceDamage | undefined
  close(): Promise<void>
}

/** Why a compressed file's content ended early: `torn-tail` (cut off, corrupt) or `too-long` (over the bound). */
export interface SourceDamage {
  readonly kind: 'torn-tail' | 'too-long'
  readonly detail: string
}

/** Whether `filePath` names a zstd-compressed transcript. */
export function isCompressed(filePath: string): boolean {
  return filePath.endsWith('.zst')
}

/**
 * Opens `filePath` for reading from `startOffset` (a decompressed offset for a `.zst` file). Never writes.
 * Only a regular file is read: anything else is refused with `ERR_NOT_A_FILE` (a directory with `EISDIR`, as
 * reading one always failed), since a FIFO or a device never ends (see {@link openRegularFile}).
 */
export async function openByteSource(filePath: string, startOffset = 0): Promise<ByteSource> {
  const handle = await openRegularFile(filePath)
  if (!isCompressed(filePath)) return new FileSource(handle, startOffset)
  try {
    const source = new ZstdSource(handle, (await import('fzstd')).Decompress)
    if (startOffset > 0) await source.skip(startOffset)
    return source
  } catch (error) {
    await handle.close()
    throw error
  }
}

class FileSource implements ByteSource {
  readonly #handle: FileHandle
  #position: number
  readonly damage = undefined

  constructor(handle: FileHandle, position: number) {
    this.#handle = handle
    this.#position = position
  }

  async read(buffer: Buffer, offset: number, length: number): Promise<number> {
    const { bytesRead } = await this.#handle.read(buffer, offset, length, this.#position)
    this.#position += bytesRead
    return bytesRead
  }

  close(): Promise<void> {
    return this.#handle.close()
  }
}

/**
 * The largest window a frame may declare. A zstd decoder keeps one window of history per frame, so this
 * bounds the decoder's memory; it is zstd's own default limit (`zstd -d` refuses larger windows unless
 * given `--memory`), far above the few MiB Codex's encoder uses. A frame over it is reported, not read.
 */
export const MAX_ZSTD_WINDOW = 128 * 1024 * 1024
/** Compressed bytes read at a time. */
const COMPRESSED_CHUNK = 256 * 1024
const ZSTD_MAGIC = 0xfd2fb528
/** Skippable frames: magic 0x184D2A50–0x184D2A5F, a 4-byte size, then that many bytes to ignore. */
const SKIPPABLE_MASK = 0xfffffff0
const SKIPPABLE_MAGIC = 0x184d2a50
const BLOCK_HEADER_BYTES = 3
const CHECKSUM_BYTES = 4
const RLE_BLOCK = 1
const RESERVED_BLOCK = 3

type DecompressClass = typeof Decompress

/**
 * A `.zst` file decompressed as it is read, with bounded memory whatever the file holds. The frames are
 * walked here (frame header, then each block by its 3-byte header) and handed to the decoder one block at a
 * time: a block never decompresses to more than 128 KiB, so the output waiting to be read stays small even
 * for a hostile file of run-length blocks (4 bytes each, 128 KiB out), and each frame's window is checked
 * against {@link MAX_ZSTD_WINDOW} before the decoder allocates it.
 */
class ZstdSource implements ByteSource {
  readonly #handle: FileHandle
  readonly #Decompress: DecompressClass
  #decoder: InstanceType<DecompressClass>
  // Compressed bytes read from the file and not yet consumed by the frame walk.
  #input = Buffer.alloc(0)
  #inputAt = 0
  #filePosition = 0
  #fileEnded = false
  // Decompressed output not yet read.
  readonly #output: Uint8Array[] = []
  #outputAt = 0
  // Where the frame walk is: at a frame's start, or inside one (blocks left, checksum to skip).
  #inFrame = false
  #checksum = false
  #ended = false
  #damage: SourceDamage | undefined
  // Decompressed bytes produced so far (for the damage's detail).
  #produced = 0

  constructor(handle: FileHandle, Decompress: DecompressClass) {
    this.#handle = handle
    this.#Decompress = Decompress
    this.#decoder = this.#newDecoder()
  }

  get damage(): SourceDamage | undefined {
    return this.#damage
  }

  async read(buffer: Buffer, offset: number, length: number): Promise<number> {
    while (this.#output.length === 0 && !this.#ended) await this.#step()
    let copied = 0
    while (copied < length && this.#output.length > 0) {
      const head = this.#output[0]!
      const n = Math.min(length - copied, head.length - this.#outputAt)
      buffer.set(head.subarray(this.#outputAt, this.#outputAt + n), offset + copied)
      copied += n
      this.#outputAt += n
      if (this.#outputAt === head.length) {
        this.#output.shift()
        this.#outputAt = 0
      }
    }
    return copied
  }

  /** Drops the first `bytes` decompressed bytes (a reader that starts past the beginning). */
  async skip(bytes: number): Promise<void> {
    const scratch = Buffer.allocUnsafe(Math.min(bytes, COMPRESSED_CHUNK))
    let left = bytes
    while (left > 0) {
      const n = await this.read(scratch, 0, Math.min(left, scratch.length))
      if (n === 0) return
      left -= n
    }
  }

  close(): Promise<void> {
    return this.#handle.close()
  }

  #newDecoder(): InstanceType<DecompressClass> {
    return new this.#Decompress((data) => {
      if (data.length === 0) return
      this.#output.push(data)
      this.#produced += data.length
    })
  }

  /** Feeds the decoder the next piece of the stream (a frame header, one block, a checksum), or ends. */
  async #step(): Promise<void> {
    try {
      if (!this.#inFrame) await this.#frameStart()
      else await this.#block()
    } catch (error) {
      // fzstd throws on corrupt data: the content ends here, reported like a cut-off file.
      const reason = error instanceof Error ? error.message : String(error)
      this.#end({ kind: 'torn-tail', detail: this.#cut(`cannot be decompressed (${reason})`) })
    }
  }

  async #frameStart(): Promise<void> {
    if (!(await this.#need(4))) {
      if (this.#available() > 0)
        this.#end({ kind: 'torn-tail', detail: this.#cut('ends inside a frame header') })
      else this.#end(undefined)
      return
    }
    const magic = this.#input.readUInt32LE(this.#inputAt)
    if ((magic & SKIPPABLE_MASK) >>> 0 === SKIPPABLE_MAGIC) {
      if (!(await this.#need(8)))
        return this.#end({ kind: 'torn-tail', detail: this.#cut('ends inside a frame') })
      const size = this.#input.readUInt32LE(this.#inputAt + 4)
      this.#inputAt += 8
      await this.#drop(size)
      return
    }
    if (magic !== ZSTD_MAGIC) {
      return this.#end({ kind: 'torn-tail', detail: this.#cut('holds bytes that are not a zstd frame') })
    }
    if (!(await this.#need(5)))
      return this.#end({ kind: 'torn-tail', detail: this.#cut('ends inside a frame header') })
    const descriptor = this.#input[this.#inputAt + 4]!
    const singleSegment = (descriptor >> 5) & 1
    const dictionaryBytes = [0, 1, 2, 4][descriptor & 3]!
    const sizeFlag = descriptor >> 6
    const sizeBytes = sizeFlag === 0 ? singleSegment : 1 << sizeFlag
    const headerBytes = 5 + (singleSegment ? 0 : 1) + dictionaryBytes + sizeBytes
    if (!(await this.#need(headerBytes)))
      return this.#end({ kind: 'torn-tail', detail: this.#cut('ends inside a frame header') })
    let window: number
    if (!singleSegment) {
      const wd = this.#input[this.#inputAt + 5]!
      const base = 2 ** (10 + (wd >> 3))
      window = base + (base / 8) * (wd & 7)
    } else {
      // A single-segment frame's window is its whole content.
      const at = this.#inputAt + 5 + dictionaryBytes
      window = sizeBytes === 1 ? this.#input[at]! : sizeBytes === 2 ? this.#input.readUInt16LE(at) + 256 : 0
      if (sizeBytes === 4) window = this.#input.readUInt32LE(at)
      if (sizeBytes === 8) window = Number(this.#input.readBigUInt64LE(at))
    }
    if (window > MAX_ZSTD_WINDOW) {
      return this.#end({
        kind: 'too-long',
        detail: this.#cut(
          `holds a frame whose ${window}-byte window is over the ${MAX_ZSTD_WINDOW}-byte bound; not read`,
        ),
      })
    }
    this.#checksum = ((descriptor >> 2) & 1) === 1
    this.#inFrame = true
    // A fresh decoder per frame: it allocates this frame's window, which was just checked.
    this.#decoder = this.#newDecoder()
    this.#push(headerBytes)
  }

  async #block(): Promise<void> {
    if (!(await this.#need(BLOCK_HEADER_BYTES)))
      return this.#end({ kind: 'torn-tail', detail: this.#cut('ends inside a block') })
    const at = this.#inputAt
    const header = this.#input[at]! | (this.#input[at + 1]! << 8) | (this.#input[at + 2]! << 16)
    const last = header & 1
    const type = (header >> 1) & 3
    const size = header >>> 3
    if (type === RESERVED_BLOCK)
      return this.#end({ kind: 'torn-tail', detail: this.#cut('holds a corrupt block') })
    const bytes = BLOCK_HEADER_BYTES + (type === RLE_BLOCK ? 1 : size)
    if (!(await this.#need(bytes)))
      return this.#end({ kind: 'torn-tail', detail: this.#cut('ends inside a block') })
    if (last === 0) {
      this.#push(bytes)
      return
    }
    this.#inFrame = false
    const trailer = this.#checksum ? CHECKSUM_BYTES : 0
    if (!(await this.#need(bytes + trailer)))
      return this.#end({ kind: 'torn-tail', detail: this.#cut('ends inside a frame checksum') })
    // `final`: the frame is complete, so the decoder must not wait for more bytes (it holds back pieces
    // shorter than a frame header otherwise).
    this.#push(bytes + trailer, true)
  }

  /** Hands the next `bytes` of input to the decoder. */
  #push(bytes: number, final = false): void {
    const piece = this.#input.subarray(this.#inputAt, this.#inputAt + bytes)
    this.#inputAt += bytes
    // Copied: the decoder may keep a short piece (a frame header) until the next push, and #input is reused.
    this.#decoder.push(Uint8Array.prototype.slice.call(piece), final)
  }

  #available(): number {
    return this.#input.length - this.#inputAt
  }

  /** Makes `bytes` input bytes available at #inputAt; false when the file ends first. */
  async #need(bytes: number): Promise<boolean> {
    while (this.#available() < bytes) {
      if (this.#fileEnded) return false
      const chunk = Buffer.allocUnsafe(Math.max(COMPRESSED_CHUNK, bytes - this.#available()))
      const { bytesRead } = await this.#handle.read(chunk, 0, chunk.length, this.#filePosition)
      if (bytesRead === 0) {
        this.#fileEnded = true
        return false
      }
      this.#filePosition += bytesRead
      this.#input = Buffer.concat([this.#input.subarray(this.#inputAt), chunk.subarray(0, bytesRead)])
      this.#inputAt = 0
    }
    return true
  }

  async #drop(bytes: number): Promise<void> {
    let left = bytes
    while (left > 0) {
      if (!(await this.#need(1)))
        return this.#end({ kind: 'torn-tail', detail: this.#cut('ends inside a skippable frame') })
      const n = Math.min(left, this.#available())
      this.#inputAt += n
      left -= n
    }
  }

  #end(damage: SourceDamage | undefined): void {
    this.#ended = true
    this.#damage = damage
  }

  #cut(what: string): string {
    return `the compressed file ${what} after ${this.#produced} decompressed byte(s); the rest is not read`
  }
}
