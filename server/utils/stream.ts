import { Readable } from 'node:stream'
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { H3Event } from 'h3'

/**
 * A body written piece by piece as the client takes it: the next piece is
 * made only when the socket has room (Node's pipe backpressure), so a large
 * answer holds a few pieces in memory at a time, not the whole. The first
 * piece is made before anything is sent, so a failure there (a refused
 * input, the database unreachable) is answered as any error; a failure later
 * cuts the connection, and the client sees a truncated transfer rather than
 * a document that looks whole.
 */
export async function streamPieces(event: H3Event, pieces: AsyncGenerator<string>): Promise<Readable> {
  const first = await pieces.next()
  async function* all() {
    if (first.done) return
    yield first.value
    for (;;) {
      // Each piece waits for the event loop's next turn, so that other requests are served in
      // between: SQLite reads are synchronous, and on a socket that keeps up, write, read and
      // the next piece chain in callbacks that never let the loop reach its I/O.
      await nextTurn()
      const next = await pieces.next()
      if (next.done) return
      yield next.value
    }
  }
  const stream = Readable.from(all(), { objectMode: false })
  stream.once('error', (error) => {
    useLogger().error({ requestId: requestIdOf(event), method: event.method, route: routeTemplate(event, 500), err: error }, '[api] stream failed')
    event.node.res.destroy()
  })
  event.node.res.once('close', () => stream.destroy())
  return stream
}
