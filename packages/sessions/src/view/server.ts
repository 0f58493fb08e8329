/**
 * `sessiontape view`: the export's page served on 127.0.0.1, live. A session's page holds its first
 * screenful of turns (read from the file's start, nothing more), so it paints at once whatever the
 * session's size; its EventSource (`…/events`) then gets the whole session in batches as it is read, and
 * after that every change: the server polls the file's size and mtime and reads only what was appended
 * (live-session.ts), sending the turns that changed, branch marks that moved, and whether the last line is
 * still being written. A directory gets a list of its sessions. Read-only: nothing is written anywhere.
 * Loopback only, and a request whose Host is not this server's loopback address is refused (a web page
 * cannot reach the viewer by DNS rebinding).
 */
import { stat } from 'node:fs/promises'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { contentSecurityPolicy } from '../export/html.js'
import { pageHead, pageIsland, pageScript, pageTail } from '../export/html.js'
import { pageMeta, turnBuilder } from '../export/render.js'
import type { Turn } from '../export/turns.js'
import { streamConversation } from '../stream-conversation.js'
import { escapeHtml, jsonIsland } from '../export/text-safety.js'
import { PAGE_STYLE } from '../export/page-style.js'
import { checkViewerOptions, type CheckedViewerOptions, type ViewerOptions } from './options.js'
import { LiveSession } from './live-session.js'
import { CATALOG_MAX_LINE_BYTES } from '../catalog/read-events.js'
import { sessionFiles } from './session-files.js'
import { createHash } from 'node:crypto'

export interface Viewer {
  /** `http://127.0.0.1:<port>/` */
  readonly url: string
  readonly port: number
  /** Stops listening and ends every live page's stream. */
  close(): Promise<void>
}

/** A comment line every so often keeps proxies and the browser from timing the stream out. */
const HEARTBEAT_MS = 15_000

/** Turns a page comes with: more than a tall screen shows; the rest follows over its event stream. */
const FIRST_SCREEN_TURNS = 50

/**
 * Bytes a page's event stream may leave unread before the server gives up on it (the page reconnects and
 * starts over): a page that stops reading must not make the server hold the session.
 */
const MAX_UNREAD_BYTES = 64 * 1024 * 1024

/** The first turns of a session, read from its start (the file is closed once they are built). */
async function firstTurns(
  file: string,
  options: CheckedViewerOptions,
): Promise<{ turns: Turn[]; meta: Record<string, unknown> }> {
  const builder = turnBuilder({ activeOnly: false })
  const turns: Turn[] = []
  for await (const event of streamConversation(file, {
    format: options.format,
    maxLineBytes: CATALOG_MAX_LINE_BYTES,
    // Problems are counted by the event stream, which reads the whole file.
    onProblem: () => {},
  })) {
    const done = builder.push(event)
    if (done !== undefined) turns.push(done)
    if (turns.length >= FIRST_SCREEN_TURNS) break
  }
  if (turns.length < FIRST_SCREEN_TURNS) {
    const last = builder.finish()
    if (last !== undefined) turns.push(last)
  }
  return { turns, meta: pageMeta(builder.facts, builder.total, { file }) }
}

const SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
} as const

function send(res: ServerResponse, status: number, type: string, body: string, csp?: string): void {
  res.writeHead(status, {
    'Content-Type': type,
    'Content-Length': Buffer.byteLength(body),
    ...SECURITY_HEADERS,
    'Content-Security-Policy': `${csp ?? "default-src 'none'"}; frame-ancestors 'none'`,
  })
  res.end(body)
}

/** The session list's stylesheet: the page's, plus the list. */
const LIST_STYLE =
  PAGE_STYLE +
  'ul.list{list-style:none;padding:0}ul.list li{margin:8px 0;padding:10px 12px;background:var(--card);border:1px solid var(--line);border-radius:10px}ul.list a{color:var(--accent);font-weight:600;overflow-wrap:anywhere}ul.list small{display:block;color:var(--muted)}'

function listPage(dir: string, files: readonly { key: string; size: number; mtimeMs: number }[]): string {
  const rows = files
    .map(
      (f) =>
        `<li><a href="/s/${escapeHtml(encodeURIComponent(f.key))}">${escapeHtml(f.key)}</a><small>${escapeHtml(new Date(f.mtimeMs).toISOString().replace('T', ' ').slice(0, 19))} UTC · ${escapeHtml(new Intl.NumberFormat('en-US').format(f.size))} bytes</small></li>`,
    )
    .join('\n')
  return (
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>Sessions · sessiontape</title><style>${LIST_STYLE}</style></head><body><main><header class="top"><h1>Sessions in ${escapeHtml(dir)}</h1>` +
    `<div class="facts"><span>${files.length} transcript${files.length === 1 ? '' : 's'}, newest first</span></div></header>` +
    `<ul class="list">${rows}</ul></main></body></html>\n`
  )
}

function listPolicy(): string {
  return `default-src 'none'; style-src 'sha256-${createHash('sha256').update(LIST_STYLE).digest('base64')}'; img-src 'none'; base-uri 'none'; form-action 'none'`
}

interface Target {
  readonly file: string
  /** The page's own path; its stream is at `${base}/events`. */
  readonly base: string
}

export async function startViewer(target: string, options: ViewerOptions = {}): Promise<Viewer> {
  if (typeof target !== 'string' || target === '') {
    throw new TypeError(
      `Expected \`target\` to be a file or directory path, got \`${String(target)}\` (${typeof target})`,
    )
  }
  const checked = checkViewerOptions(options)
  // Loaded here, not at import: a bundle hoists a static import of node:http to its top, and every command
  // of the CLI (search, list) then paid for loading Node's HTTP stack (~5–8 ms of CPU).
  const { createServer } = await import('node:http')
  const info = await stat(target)
  const isDir = info.isDirectory()
  if (!isDir && !info.isFile())
    throw new TypeError(`Expected \`target\` to be a file or a directory: ${target}`)
  const streams = new Set<ServerResponse>()
  let port = 0

  const resolveTarget = async (path: string): Promise<Target | undefined> => {
    if (!isDir) return path === '/' || path === '/events' ? { file: target, base: '' } : undefined
    const match = /^\/s\/([^/]+)(\/events)?$/.exec(path)
    if (match === null) return undefined
    let key: string
    try {
      key = decodeURIComponent(match[1]!)
    } catch {
      return undefined
    }
    // Only a file the listing shows can be opened: no path from the URL reaches the file system.
    const file = (await sessionFiles(target)).find((f) => f.key === key)
    return file === undefined ? undefined : { file: file.path, base: `/s/${encodeURIComponent(key)}` }
  }

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const host = req.headers.host ?? ''
    if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) {
      send(
        res,
        403,
        'text/plain; charset=utf-8',
        'Forbidden: this viewer answers only on its loopback address.\n',
      )
      return
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD')
      send(res, 405, 'text/plain; charset=utf-8', 'Read-only.\n')
      return
    }
    const url = new URL(req.url ?? '/', `http://${host}`)
    if (isDir && url.pathname === '/') {
      send(res, 200, 'text/html; charset=utf-8', listPage(target, await sessionFiles(target)), listPolicy())
      return
    }
    const found = await resolveTarget(url.pathname)
    if (found === undefined) {
      send(res, 404, 'text/plain; charset=utf-8', 'Not found.\n')
      return
    }
    if (url.pathname.endsWith('/events')) {
      follow(found, req, res, checked)
      return
    }
    // The first screenful only, at once: the event stream brings the rest as it is read.
    const { turns, meta } = await firstTurns(found.file, checked)
    res.writeHead(200, {
      'Content-Type': 'text/html; charset=utf-8',
      ...SECURITY_HEADERS,
      'Content-Security-Policy': `${contentSecurityPolicy(true)}; frame-ancestors 'none'`,
    })
    res.end(
      pageHead({ title: 'Session · sessiontape', live: true }) +
        pageIsland(turns) +
        pageScript() +
        pageTail({ ...meta, live: `${found.base}/events` }),
    )
  }

  const follow = (
    found: Target,
    req: IncomingMessage,
    res: ServerResponse,
    opts: CheckedViewerOptions,
  ): void => {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      ...SECURITY_HEADERS,
      Connection: 'keep-alive',
    })
    streams.add(res)
    const reading = new AbortController()
    let lastSize = -1
    let lastMtime = -1
    let busy = false
    let closed = false
    const event = (name: string, data: unknown): void => {
      if (closed) return
      res.write(`event: ${name}\ndata: ${jsonIsland(data)}\n\n`)
      if (res.writableLength > MAX_UNREAD_BYTES) res.destroy()
    }
    const session = new LiveSession(found.file, opts.format, {
      turns: (message) => event('turns', message),
      branch: (message) => event('branch', message),
      pending: (pending) => event('pending', pending),
    })
    const check = async (): Promise<void> => {
      if (busy || closed) return
      busy = true
      try {
        const info = await stat(found.file)
        if (info.size === lastSize && info.mtimeMs === lastMtime) return
        lastSize = info.size
        lastMtime = info.mtimeMs
        await session.update(reading.signal)
      } catch {
        // The file is being replaced or briefly unreadable, or the page went away: the next poll tries again
        // (a closed stream has no next poll).
        lastSize = -1
      } finally {
        busy = false
      }
    }
    // Polling, not fs.watch: it sees appends on every file system (network mounts included) and stops cleanly.
    const timer = setInterval(() => void check(), opts.pollMs)
    const heartbeat = setInterval(() => {
      if (!closed) res.write(': ping\n\n')
    }, HEARTBEAT_MS)
    void check()
    const stop = (): void => {
      closed = true
      reading.abort()
      clearInterval(timer)
      clearInterval(heartbeat)
      streams.delete(res)
    }
    req.on('close', stop)
    res.on('close', stop)
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) {
        const message =
          error instanceof Error && 'code' in error && error.code === 'ENOENT'
            ? 'Not found.\n'
            : 'The session could not be read.\n'
        send(res, message.startsWith('Not') ? 404 : 500, 'text/plain; charset=utf-8', message)
      } else res.destroy()
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(checked.port, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    close: async () => {
      for (const res of streams) res.end()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
