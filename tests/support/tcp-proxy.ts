import { connect, createServer, type Server, type Socket } from 'node:net'
import { freePort } from './server'

/**
 * A TCP proxy on 127.0.0.1 in front of a real server (PostgreSQL), so a test
 * can cut the connection (every open socket dropped, new ones refused) and
 * restore it on the same port, as a database restart or network loss would.
 */
export async function startTcpProxy(target: { host: string, port: number }) {
  const port = await freePort()
  const sockets = new Set<Socket>()
  let server: Server | undefined

  const listen = () => new Promise<void>((resolve, reject) => {
    server = createServer((client) => {
      const upstream = connect(target.port, target.host)
      for (const socket of [client, upstream]) {
        sockets.add(socket)
        socket.on('close', () => sockets.delete(socket))
        socket.on('error', () => socket.destroy())
      }
      client.pipe(upstream)
      upstream.pipe(client)
      client.on('close', () => upstream.destroy())
      upstream.on('close', () => client.destroy())
    })
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve())
  })
  await listen()

  return {
    port,
    /** Drops every connection and refuses new ones. */
    cut: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy()
      server!.close(() => resolve())
    }),
    /** Accepts connections again on the same port. */
    restore: listen,
    close: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy()
      if (server?.listening) server.close(() => resolve())
      else resolve()
    }),
  }
}
