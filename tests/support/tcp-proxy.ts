import { connect, createServer, type Server, type Socket } from 'node:net'
import { freePort } from './server'

/** One proxied connection: what a stall holds back in each direction. */
interface Link {
  client: Socket
  /** Null while stalled after the server closed it (an idle keep-alive): opened again on resume if needed. */
  upstream: Socket | null
  toUpstream: Buffer[]
  toClient: Buffer[]
  /** The client hung up during a stall: what it sent still goes upstream on resume. */
  clientGone: boolean
}

/**
 * A TCP proxy on 127.0.0.1 in front of a real server (PostgreSQL, an S3
 * stand-in), so a test can cut the connection (every open socket dropped, new
 * ones refused) and restore it on the same port, as a restart or network loss
 * would; or stall it (bytes held in both directions, connections kept) and
 * resume it, as a server that stops answering for a while and then carries
 * out what it was sent, even for a client that gave up meanwhile.
 */
export async function startTcpProxy(target: { host: string, port: number }) {
  const port = await freePort()
  const links = new Set<Link>()
  let server: Server | undefined
  let stalled = false
  /** Bytes still allowed upstream before the proxy cuts by itself (cutAfter). */
  let budget = Number.POSITIVE_INFINITY
  let cutByItself: () => void = () => {}

  const drop = (link: Link) => {
    link.client.destroy()
    link.upstream?.destroy()
    links.delete(link)
  }

  const attachUpstream = (link: Link) => {
    const upstream = connect(target.port, target.host)
    link.upstream = upstream
    upstream.on('error', () => upstream.destroy())
    upstream.on('data', (chunk: Buffer) => {
      if (stalled) link.toClient.push(chunk)
      else if (!link.clientGone) link.client.write(chunk)
    })
    upstream.on('close', () => {
      if (link.upstream !== upstream) return
      if (stalled) link.upstream = null
      else drop(link)
    })
    return upstream
  }

  const cut = () => new Promise<void>((resolve) => {
    for (const link of links) drop(link)
    if (server?.listening) server.close(() => resolve())
    else resolve()
  })

  const listen = () => new Promise<void>((resolve, reject) => {
    server = createServer((client) => {
      const link: Link = { client, upstream: null, toUpstream: [], toClient: [], clientGone: false }
      links.add(link)
      attachUpstream(link)
      client.on('error', () => client.destroy())
      client.on('data', (chunk: Buffer) => {
        if (stalled) return void link.toUpstream.push(chunk)
        budget -= chunk.length
        if (budget < 0) {
          budget = Number.POSITIVE_INFINITY
          void cut().then(() => cutByItself())
          return
        }
        link.upstream?.write(chunk)
      })
      client.on('close', () => {
        if (stalled) link.clientGone = true
        else drop(link)
      })
    })
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve())
  })
  await listen()

  return {
    port,
    /** Drops every connection and refuses new ones. */
    cut,
    /** Accepts connections again on the same port. */
    restore: listen,
    /** Drops everything once this many more bytes have gone upstream (a bucket lost in the middle of a copy); resolves then. */
    cutAfter: (bytes: number): Promise<void> => {
      budget = bytes
      return new Promise((resolve) => {
        cutByItself = resolve
      })
    },
    /** Holds every byte in both directions (connections stay open, new ones are accepted and held too). */
    stall: () => {
      stalled = true
    },
    /** Delivers what was held; a client that hung up meanwhile still has its bytes delivered upstream. */
    resume: () => {
      stalled = false
      for (const link of links) {
        const held = link.toUpstream.splice(0)
        if (!link.upstream && held.length === 0) {
          drop(link)
          continue
        }
        const upstream = link.upstream ?? attachUpstream(link)
        for (const chunk of held) upstream.write(chunk)
        // The server answers into the void, then closes the idle connection itself.
        if (link.clientGone) setTimeout(() => drop(link), 10_000).unref()
        else for (const chunk of link.toClient.splice(0)) link.client.write(chunk)
      }
    },
    close: cut,
  }
}
