/**
 * `sessiontape view`: the export's page served on 127.0.0.1, live. A session's page embeds its turns like an
 * export; its EventSource (`…/events`) then gets every change: the server polls the file's size and
 * mtime, re-reads it when it changed, and sends the turns that differ from what that page has (from the
 * first changed one), plus whether the last line is still being written. A directory gets a list of its
 * sessions. Read-only: nothing is written anywhere. Loopback only, and a request whose Host is not
 * this server's loopback address is refused (a web page cannot reach the viewer by DNS rebinding).
 */
import { stat } from 'node:fs/promises'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { once } from 'node:events'
import { contentSecurityPolicy } from '../export/html.js'
import { activeBranchOf } from '../export/branch-pass.js'
import { renderEvents } from '../export/render.js'
import { streamConversation } from '../stream-conversation.js'
import { escapeHtml, jsonIsland } from '../export/text-safety.js'
import { PAGE_STYLE } from '../export/page-style.js'
import { checkViewerOptions, type CheckedViewerOptions, type ViewerOptions } from './options.js'
import { VIEW_MAX_LINE_BYTES, problemCounter, readSessionView, tailState } from './live-session.js'
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
      follow(found, Number(url.searchParams.get('size') ?? '-1'), req, res, checked)
      return
    }
    // Streamed as it is read: the first turns reach the browser (and are painted) before the rest is read.
    const { size, pending } = await tailState(found.file)
    const read = { format: checked.format, maxLineBytes: VIEW_MAX_LINE_BYTES }
    const onBranch = await activeBranchOf(found.file, read)
    const problems = problemCounter(pending)
    const events = streamConversation(found.file, { ...read, onProblem: problems.onProblem })
    res.writeHead(200, {
      'Content-Type': 'text/html; charset=utf-8',
      ...SECURITY_HEADERS,
      'Content-Security-Policy': `${contentSecurityPolicy(true)}; frame-ancestors 'none'`,
    })
    await renderEvents(
      events,
      {
        format: 'html',
        live: true,
        activeOnly: false,
        onBranch,
        file: found.file,
        meta: { live: `${found.base}/events?size=${size}`, pending },
      },
      async (chunk) => {
        if (!res.write(chunk)) await once(res, 'drain')
      },
      () => problems.count(),
    )
    res.end()
  }

  const follow = (
    found: Target,
    clientSize: number,
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
    let sent: string[] | undefined
    let lastSize = -1
    let lastMtime = -1
    let lastPending: boolean | undefined
    let busy = false
    let closed = false
    const event = (name: string, data: unknown): void => {
      if (!closed) res.write(`event: ${name}\ndata: ${jsonIsland(data)}\n\n`)
    }
    const check = async (): Promise<void> => {
      if (busy || closed) return
      busy = true
      try {
        const info = await stat(found.file)
        if (info.size === lastSize && info.mtimeMs === lastMtime) return
        lastSize = info.size
        lastMtime = info.mtimeMs
        const view = await readSessionView(found.file, { format: opts.format })
        const now = view.turns.map((turn) => JSON.stringify(turn))
        if (sent === undefined && view.size === clientSize) {
          // The page was built from this very size: it already shows these turns.
          sent = now
        } else {
          const before = sent ?? []
          let from = 0
          while (from < now.length && from < before.length && now[from] === before[from]) from++
          if (from < now.length || now.length !== before.length || sent === undefined) {
            event('turns', {
              from,
              length: now.length,
              turns: view.turns.slice(from),
              meta: { ...view.meta, live: true },
            })
          }
          sent = now
        }
        if (view.pending !== lastPending) event('pending', view.pending)
        lastPending = view.pending
      } catch {
        // The file is being replaced or briefly unreadable: the next poll tries again.
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
