/**
 * The HTML page: one self-contained file. The transcript travels as JSON islands
 * (`<script type="application/json">`, which no browser executes) that the one inline script renders. The
 * Content-Security-Policy allows exactly that script and that stylesheet by hash, images only as `data:`
 * URIs, no other script, style, image, font, frame or connection: a page built from hostile text can neither
 * run code nor phone home.
 * Written in parts so an export streams: the head, islands of turns (the script after the first), the tail.
 */
import { createHash } from 'node:crypto'
import { PAGE_SCRIPT } from './page-script.js'
import { PAGE_STYLE } from './page-style.js'
import { escapeHtml, jsonIsland } from './text-safety.js'

function sha256(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`
}

export interface PageOptions {
  /** The page's initial title (the script sets the final one from the data). */
  readonly title: string
  /**
   * Where a live page's EventSource connects (same origin). The policy then allows `connect-src 'self'`;
   * an exported file allows no connection at all.
   */
  readonly live?: boolean
}

/** The Content-Security-Policy of a page. */
export function contentSecurityPolicy(live: boolean): string {
  return [
    "default-src 'none'",
    `script-src ${sha256(PAGE_SCRIPT)}`,
    `style-src ${sha256(PAGE_STYLE)}`,
    `connect-src ${live ? "'self'" : "'none'"}`,
    // Images only from the page itself: `data:` URIs the export built from checked bytes (images.ts).
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ')
}

/** Everything before the turns island's first turn. */
export function pageHead(options: PageOptions): string {
  return (
    '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n' +
    `<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(options.live === true)}">\n` +
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n' +
    '<meta name="referrer" content="no-referrer">\n' +
    '<meta name="generator" content="sessiontape">\n' +
    `<title>${escapeHtml(options.title)}</title>\n<style>${PAGE_STYLE}</style>\n</head>\n<body>\n` +
    '<noscript><p>This page shows the session with its inline script, which is off in this browser.</p></noscript>\n' +
    '<main id="app"></main>\n'
  )
}

/**
 * Turns per island. The script runs right after the first island, so the first screen is painted while the
 * browser still parses the rest of a long session; later islands are read once the document is complete.
 */
export const ISLAND_TURNS = 100

/** What an island of turns starts with, what separates its turns, and what ends it. */
export const ISLAND_OPEN = '<script type="application/json" class="st-turns">['
export const ISLAND_SEPARATOR = ',\n'
export const ISLAND_CLOSE = ']</script>\n'

/** One island of turns (a streamed export writes the same bytes in pieces: render.ts). */
export function pageIsland(turns: readonly unknown[]): string {
  return `${ISLAND_OPEN}${turns.map(jsonIsland).join(ISLAND_SEPARATOR)}${ISLAND_CLOSE}`
}

/** The script (once, after the first island). */
export function pageScript(): string {
  return `<script>${PAGE_SCRIPT}</script>\n`
}

/** The metadata island (known only at the end of a streamed export) and the end of the page. */
export function pageTail(meta: unknown): string {
  return `<script type="application/json" id="st-meta">${jsonIsland(meta)}</script>\n</body>\n</html>\n`
}

/** A whole page of `turns`, islands and script in the order a streamed export writes them. */
export function wholePage(options: PageOptions, turns: readonly unknown[], meta: unknown): string {
  let out = pageHead(options)
  for (let i = 0; i < turns.length || i === 0; i += ISLAND_TURNS) {
    out += pageIsland(turns.slice(i, i + ISLAND_TURNS))
    if (i === 0) out += pageScript()
  }
  return out + pageTail(meta)
}
