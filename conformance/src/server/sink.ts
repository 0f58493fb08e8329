import { createServer, type Server } from 'node:http'
import type { Socket } from 'node:net'
import { listenOnLoopback } from './loopback.js'

/**
 * Where the agents' HTTP(S)_PROXY points: a local port that refuses every request and every CONNECT, and
 * remembers the host each one was for. Our model server is reached directly (NO_PROXY=127.0.0.1), so anything
 * arriving here is an attempt to go online; the tables print them, so "offline" is measured, not assumed.
 * (An agent that ignores the proxy variables is not seen here; the model server's log still shows that
 * nothing but our APIs answered it.)
 */

export interface ProxySink {
  readonly url: string
  /** Hosts asked for since the last call, in order, then forgotten. */
  take(): string[]
  close(): Promise<void>
}

export async function startProxySink(): Promise<ProxySink> {
  let hosts: string[] = []
  const server: Server = createServer((req, res) => {
    hosts.push(new URL(req.url ?? '/', 'http://unknown').host || (req.headers.host ?? 'unknown'))
    res.writeHead(403, { 'content-type': 'text/plain' }).end('offline: refused by the conformance suite\n')
  })
  server.on('connect', (req, socket: Socket) => {
    hosts.push(req.url ?? 'unknown')
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n')
  })
  const loopback = await listenOnLoopback(server)
  return {
    url: loopback.url,
    take: () => {
      const taken = hosts
      hosts = []
      return taken
    },
    close: () => loopback.close(),
  }
}
