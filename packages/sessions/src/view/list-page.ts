/**
 * The folder's page: its sessions, newest first, each with its title, agent, start, last write and size.
 * Every string from a file name or a transcript is escaped (and its control characters shown), and the
 * page has no script: its policy allows its one stylesheet by hash and nothing else.
 */
import { createHash } from 'node:crypto'
import { PAGE_STYLE } from '../export/page-style.js'
import { escapeHtml, showControls } from '../export/text-safety.js'
import type { SessionDetails, SessionFile } from './session-files.js'

/** The list's stylesheet: the page's, plus the list. */
const LIST_STYLE =
  PAGE_STYLE +
  'ul.list{list-style:none;padding:0}ul.list li{margin:8px 0;padding:10px 12px;background:var(--card);border:1px solid var(--line);border-radius:10px}ul.list a{color:var(--accent);font-weight:600;overflow-wrap:anywhere}ul.list small{display:block;color:var(--muted);overflow-wrap:anywhere}ul.list .agent{display:inline-block;margin-right:8px;padding:0 6px;border:1px solid var(--line);border-radius:6px;font-size:.8rem}'

const NUMBER = new Intl.NumberFormat('en-US')

function text(value: string): string {
  return escapeHtml(showControls(value))
}

function when(ms: number): string {
  return `${new Date(ms).toISOString().replace('T', ' ').slice(0, 19)} UTC`
}

/** A transcript's own timestamp as the page shows it (ISO: its date and time; else as written). */
function startedAt(timestamp: string): string {
  const iso = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})/.exec(timestamp)
  return iso === null ? timestamp : `${iso[1]} ${iso[2]}${timestamp.endsWith('Z') ? ' UTC' : ''}`
}

function size(bytes: number): string {
  if (bytes < 1024) return `${NUMBER.format(bytes)} bytes`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`
}

export function listPage(
  dir: string,
  files: readonly SessionFile[],
  details: readonly SessionDetails[],
): string {
  const rows = files
    .map((file, i) => {
      const { title, agent, started } = details[i]!
      const facts = [
        started === '' ? '' : `started ${text(startedAt(started))}`,
        `last written ${text(when(file.mtimeMs))}`,
        text(size(file.size)),
      ].filter((fact) => fact !== '')
      return (
        `<li>${agent === '' ? '' : `<span class="agent">${text(agent)}</span>`}` +
        `<a href="/s/${escapeHtml(encodeURIComponent(file.key))}">${text(title === '' ? file.key : title)}</a>` +
        `<small>${title === '' ? '' : `${text(file.key)} · `}${facts.join(' · ')}</small></li>`
      )
    })
    .join('\n')
  return (
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>Sessions · sessiontape</title><style>${LIST_STYLE}</style></head><body><main><header class="top"><h1>Sessions in ${text(dir)}</h1>` +
    `<div class="facts"><span>${files.length} transcript${files.length === 1 ? '' : 's'}, newest first</span></div></header>` +
    `<ul class="list">${rows}</ul></main></body></html>\n`
  )
}

export function listPolicy(): string {
  return `default-src 'none'; style-src 'sha256-${createHash('sha256').update(LIST_STYLE).digest('base64')}'; img-src 'none'; base-uri 'none'; form-action 'none'`
}
