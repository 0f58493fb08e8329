import { createServer, type Server } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

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
  const sockets = new Set<Socket>()
  const server: Server = createServer((req, res) => {
    hosts.push(new URL(req.url ?? '/', 'http://unknown').host || (req.headers.host ?? 'unknown'))
    res.writeHead(403, { 'content-type': 'text/plain' }).end('offline: refused by the conformance suite\n')
  })
  server.on('connect', (req, socket: Socket) => {
    hosts.push(req.url ?? 'unknown')
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n')
  })
  server.on('connection', (socket) => {
    // An agent killed mid-request resets its connection: that is its business, never a crash of the suite.
    socket.on('error', () => socket.destroy())
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    take: () => {
      const taken = hosts
      hosts = []
      return taken
    },
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
