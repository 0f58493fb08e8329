import type { Server } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

/** A server of the suite listening on 127.0.0.1, and how to close it whatever its open connections do. */
export interface Loopback {
  readonly url: string
  /** Cuts every connection (a stalled response never ends by itself), then closes the server. */
  close(): Promise<void>
}

/** Starts `server` on a free loopback port, keeping its sockets so `close()` can always finish. */
export async function listenOnLoopback(server: Server): Promise<Loopback> {
  const sockets = new Set<Socket>()
  server.on('connection', (socket) => {
    // A killed agent resets its connection mid-stream (the stall scenarios do it on purpose): not an error.
    socket.on('error', () => socket.destroy())
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
