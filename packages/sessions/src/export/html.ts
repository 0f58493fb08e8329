/**
 * The HTML page: one self-contained file. The transcript travels as JSON islands
 * (`<script type="application/json">`, which no browser executes) that the one inline script renders. The
 * Content-Security-Policy allows exactly that script and that stylesheet by hash, no other script, style,
 * image, font, frame or connection: a page built from hostile text can neither run code nor phone home.
 * Written in three parts so an export streams: the head, the turns island (one turn at a time), the tail.
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
    "img-src 'none'",
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
    '<main id="app"></main>\n<script type="application/json" id="st-turns">['
  )
}

/** One turn of the island (`first` tells whether a comma goes before it). */
export function pageTurn(turn: unknown, first: boolean): string {
  return (first ? '' : ',\n') + jsonIsland(turn)
}

/** The end of the turns island, the metadata island and the script. */
export function pageTail(meta: unknown): string {
  return (
    ']</script>\n' +
    `<script type="application/json" id="st-meta">${jsonIsland(meta)}</script>\n` +
    `<script>${PAGE_SCRIPT}</script>\n</body>\n</html>\n`
  )
}
