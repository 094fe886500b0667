import { createServer, type Server } from 'node:http'

export interface ImageHost {
  url: string
  close: () => Promise<void>
}

/**
 * A tiny HTTP server on 127.0.0.1 for image_url tests: `routes` maps a path to
 * an image, a redirect (`{ redirect }`) or a streamed body of `{ stream }` bytes
 * sent without Content-Length.
 */
export async function startImageHost(routes: Record<string, Buffer | { redirect: string } | { stream: number } | { text: string }>): Promise<ImageHost> {
  const server: Server = createServer((req, res) => {
    const route = routes[new URL(req.url ?? '/', 'http://x').pathname]
    if (!route) {
      res.writeHead(404).end()
    }
    else if (Buffer.isBuffer(route)) {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': route.length }).end(route)
    }
    else if ('redirect' in route) {
      res.writeHead(302, { location: route.redirect }).end()
    }
    else if ('text' in route) {
      res.writeHead(200, { 'content-type': 'text/plain' }).end(route.text)
    }
    else {
      res.writeHead(200, { 'content-type': 'image/jpeg' })
      const chunk = Buffer.alloc(64 * 1024, 0xFF)
      let sent = 0
      const write = () => {
        while (sent < route.stream && !res.destroyed) {
          sent += chunk.length
          if (!res.write(chunk)) return void res.once('drain', write)
        }
        res.end()
      }
      res.on('error', () => {})
      write()
    }
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    }),
  }
}
