/**
 * `sessiontape view`: the export's page served on 127.0.0.1, live. A session's page holds its first
 * screenful of turns (read from the file's start, nothing more), so it paints at once whatever the
 * session's size; its EventSource (`…/events`) then gets the whole session as it is read, and after that
 * every change (live-session.ts, event-stream.ts). A directory gets a list of its sessions. Read-only:
 * nothing is written but the private file a browser is opened on (launchFile).
 *
 * Who may ask: loopback only; a request whose Host is not this server's loopback address is refused (403: a
 * web page cannot reach the viewer by DNS rebinding); and every request must carry this launch's secret, in
 * its URL the first time, then in a cookie (access.ts); anything else gets 401, whichever local user asks.
 */
import { mkdtemp, open, rm, stat } from 'node:fs/promises'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { resolveFormat } from '@sessiontape/recorder/internal'
import { contentSecurityPolicy } from '../export/html.js'
import { pageHead, pageIsland, pageScript, pageTail } from '../export/html.js'
import { pageMeta, turnBuilder } from '../export/render.js'
import type { Turn } from '../export/turns.js'
import { escapeHtml } from '../export/text-safety.js'
import { streamConversation } from '../stream-conversation.js'
import { CATALOG_MAX_LINE_BYTES } from '../catalog/read-events.js'
import { AccessGate } from './access.js'
import { EventStreams, SECURITY_HEADERS } from './event-stream.js'
import { FollowedFile } from './followed-file.js'
import { listPage, listPolicy } from './list-page.js'
import { checkViewerOptions, type CheckedViewerOptions, type ViewerOptions } from './options.js'
import { SessionDetailsCache, sessionFiles } from './session-files.js'

export interface Viewer {
  /**
   * `http://127.0.0.1:<port>/?token=<secret>`: the page, with this launch's secret. Whoever has it can read
   * the sessions served: give it only to the user who started the viewer (print it, or open a browser on
   * {@link Viewer.launchFile}, never with the URL on a command line, which every local user can read).
   */
  readonly url: string
  readonly port: number
  /**
   * Writes an HTML file that sends a browser to {@link Viewer.url}: mode 0600 in a directory of its own
   * (0700) under the system's temporary directory. Open a browser on its path; close() removes it.
   */
  launchFile(): Promise<string>
  /** Stops listening, ends every live page's stream and removes the launch file. */
  close(): Promise<void>
}

/** Turns a page comes with: more than a tall screen shows; the rest follows over its event stream. */
const FIRST_SCREEN_TURNS = 50

/** The first turns of a session, read from its start, and the tag of the file they were read from. */
async function firstTurns(
  path: string,
  options: CheckedViewerOptions,
): Promise<{ turns: Turn[]; meta: Record<string, unknown>; tag: string }> {
  const file = await FollowedFile.open(path)
  try {
    const format = await resolveFormat(path, options.format)
    const builder = turnBuilder({ activeOnly: false })
    const turns: Turn[] = []
    // Through the held descriptor (a compressed file by its name, which says it is one): the page's turns
    // and its tag are of the same file.
    for await (const event of streamConversation(path.endsWith('.zst') ? path : file.readPath, {
      format,
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
    return { turns, meta: pageMeta(builder.facts, builder.total, { file: path }), tag: file.tag }
  } finally {
    await file.close()
  }
}

function send(
  res: ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string> = {},
  type = 'text/plain; charset=utf-8',
): void {
  res.writeHead(status, {
    'Content-Type': type,
    'Content-Length': Buffer.byteLength(body),
    ...SECURITY_HEADERS,
    'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
    ...headers,
  })
  res.end(body)
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
  const streams = new EventStreams()
  const details = new SessionDetailsCache(checked.format)
  let port = 0
  const gate = new AccessGate()

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
      send(res, 403, 'Forbidden: this viewer answers only on its loopback address.\n')
      return
    }
    const url = new URL(req.url ?? '/', `http://${host}`)
    const access = gate.check(url, req.headers.cookie)
    if (access.kind === 'denied') {
      send(
        res,
        401,
        'Unauthorized: open the link `sessiontape view` printed when it started (it carries a secret of that launch).\n',
      )
      return
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      send(res, 405, 'Read-only.\n', { Allow: 'GET, HEAD' })
      return
    }
    if (access.kind === 'grant') {
      // Redirected by the page itself (a refresh), not by a 3xx: a browser withholds a SameSite=Strict cookie
      // from every request of a redirect chain another site began (the launch file, at file://, is one),
      // while a navigation this origin's own page starts is same-site.
      const location = escapeHtml(access.location)
      send(
        res,
        200,
        `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer"><meta http-equiv="refresh" content="0; url=${location}"><title>sessiontape view</title></head><body><p><a href="${location}">Open the session</a></p></body></html>\n`,
        { 'Set-Cookie': gate.setCookie() },
        'text/html; charset=utf-8',
      )
      return
    }
    if (isDir && url.pathname === '/') {
      const files = await sessionFiles(target)
      const body = listPage(target, files, await details.detailsOf(files))
      send(
        res,
        200,
        body,
        { 'Content-Security-Policy': `${listPolicy()}; frame-ancestors 'none'` },
        'text/html; charset=utf-8',
      )
      return
    }
    const found = await resolveTarget(url.pathname)
    if (found === undefined) {
      send(res, 404, 'Not found.\n')
      return
    }
    if (url.pathname.endsWith('/events')) {
      const tag = url.searchParams.get('at') ?? undefined
      if (!streams.follow(found.file, tag, req, res, checked)) {
        send(res, 503, 'Too many pages follow sessions on this viewer; close one and reload.\n', {
          'Retry-After': '5',
        })
      }
      return
    }
    // The first screenful only, at once: the event stream brings the rest as it is read.
    const { turns, meta, tag } = await firstTurns(found.file, checked)
    res.writeHead(200, {
      'Content-Type': 'text/html; charset=utf-8',
      ...SECURITY_HEADERS,
      'Content-Security-Policy': `${contentSecurityPolicy(true)}; frame-ancestors 'none'`,
    })
    res.end(
      pageHead({ title: 'Session · sessiontape', live: true }) +
        pageIsland(turns) +
        pageScript() +
        pageTail({ ...meta, live: `${found.base}/events?at=${encodeURIComponent(tag)}` }),
    )
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) {
        const gone = error instanceof Error && 'code' in error && error.code === 'ENOENT'
        send(res, gone ? 404 : 500, gone ? 'Not found.\n' : 'The session could not be read.\n')
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
  gate.listening(port)
  const url = `http://127.0.0.1:${port}${gate.withToken('/')}`
  let launchDir: string | undefined
  return {
    url,
    port,
    launchFile: async () => {
      // mkdtemp makes the directory 0700; the file is created 0600 and never existed before (wx).
      launchDir ??= await mkdtemp(join(tmpdir(), 'sessiontape-view-'))
      const file = join(launchDir, `open-${port}.html`)
      const handle = await open(file, 'wx', 0o600)
      try {
        const href = escapeHtml(url)
        await handle.writeFile(
          '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">' +
            `<meta http-equiv="Content-Security-Policy" content="default-src 'none'">` +
            `<meta name="referrer" content="no-referrer"><meta http-equiv="refresh" content="0; url=${href}">` +
            `<title>sessiontape view</title></head><body><p><a href="${href}">Open the session viewer</a></p></body></html>\n`,
        )
      } finally {
        await handle.close()
      }
      return file
    },
    close: async () => {
      streams.endAll()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      if (launchDir !== undefined) await rm(launchDir, { recursive: true, force: true })
    },
  }
}
