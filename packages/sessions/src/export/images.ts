/**
 * Images shown in a page, from the transcript's own bytes only, as `data:` URIs: the page's policy allows
 * `img-src data:` and nothing else, so no image can be fetched from anywhere. Only raster types a browser
 * decodes without running anything (PNG, JPEG, GIF, WebP), known by their first bytes — the media type a
 * transcript declares is not trusted, and SVG (a document that can hold script and links) is never shown.
 * Bounded per image and per page, so a session of screenshots cannot make a page of gigabytes.
 */
import type { EventImage } from '../model.js'

/** The most bytes one image may have (decoded) to be shown: a full-screen screenshot fits. */
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024
/** The most image bytes (decoded) one page shows; later images become placeholders. */
export const MAX_PAGE_IMAGE_BYTES = 16 * 1024 * 1024

/** An image as a turn carries it: its `data:` URI, or why it is not shown. */
export interface ShownImage {
  /** The sniffed type (`image/png`…), else the declared one (shown, never used). */
  readonly media: string
  /** Decoded bytes (0 when the data is not base64). */
  readonly bytes: number
  /** `data:image/<png|jpeg|gif|webp>;base64,…`, when shown. */
  readonly src?: string
  /** Why it is not shown. */
  readonly omitted?: string
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/

/** The raster type the bytes start with, or undefined. */
export function sniffImage(
  bytes: Uint8Array,
): 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp' | undefined {
  const at = (i: number, ...values: number[]): boolean => values.every((v, k) => bytes[i + k] === v)
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png'
  if (at(0, 0xff, 0xd8, 0xff)) return 'image/jpeg'
  if (at(0, 0x47, 0x49, 0x46, 0x38) && (at(4, 0x37, 0x61) || at(4, 0x39, 0x61))) return 'image/gif'
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return 'image/webp'
  return undefined
}

/** Checks images against their bounds; one per page (the page budget is its state). */
export class ImageBudget {
  /** Image bytes the page holds so far. */
  #used = 0
  readonly #perImage: number
  readonly #perPage: number

  constructor(perImage = MAX_IMAGE_BYTES, perPage = MAX_PAGE_IMAGE_BYTES) {
    this.#perImage = perImage
    this.#perPage = perPage
  }

  /** The image as shown: a canonical `data:` URI of its own bytes, or a placeholder saying why not. */
  show(image: EventImage, placeholder?: string): ShownImage {
    const declared = image.mediaType.replace(/[^\w.+/-]/g, '').slice(0, 60)
    if (placeholder !== undefined) return { media: declared, bytes: 0, omitted: placeholder }
    const data = image.data.replace(/\s+/g, '')
    // Decoded size from the text, before decoding anything: a huge image is refused without a copy.
    const bytes = Math.floor((data.length * 3) / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0)
    if (!BASE64.test(data) || data.length % 4 === 1)
      return { media: declared, bytes: 0, omitted: 'not base64' }
    if (bytes > this.#perImage)
      return { media: declared, bytes, omitted: `larger than ${this.#perImage / 1024 / 1024} MiB` }
    if (this.#used + bytes > this.#perPage)
      return {
        media: declared,
        bytes,
        omitted: `the page's ${this.#perPage / 1024 / 1024} MiB of images is used up`,
      }
    const decoded = Buffer.from(data, 'base64')
    const media = sniffImage(decoded)
    if (media === undefined) return { media: declared, bytes, omitted: 'not a PNG, JPEG, GIF or WebP image' }
    this.#used += decoded.length
    // Encoded again from the bytes: the URI holds nothing but canonical base64.
    return { media, bytes: decoded.length, src: `data:${media};base64,${decoded.toString('base64')}` }
  }
}
