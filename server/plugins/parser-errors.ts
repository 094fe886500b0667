import { subscribe } from 'node:diagnostics_channel'
import { Server as HttpServer, STATUS_CODES } from 'node:http'
import { Server as HttpsServer } from 'node:https'
import type { Socket } from 'node:net'

/** What Node's HTTP parser refuses before any handler runs, as status and message. */
function parserErrorAnswer(code: string | undefined): [number, string] {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW': return [431, 'Request headers too large']
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW': return [413, 'Chunk extensions too large']
    case 'ERR_HTTP_REQUEST_TIMEOUT': return [408, 'Request timeout']
    default: return [400, 'Malformed HTTP request']
  }
}

/** The raw HTTP/1.1 answer for a request Node's parser refused, in the API's error shape. */
function parserErrorResponse(code: string | undefined): string {
  const [statusCode, message] = parserErrorAnswer(code)
  const statusMessage = REASON_PHRASES[statusCode] ?? STATUS_CODES[statusCode] ?? 'Bad Request'
  const body = JSON.stringify({ statusCode, statusMessage, message })
  return [
    `HTTP/1.1 ${statusCode} ${statusMessage}`,
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Cache-Control: no-store',
    'X-Content-Type-Options: nosniff',
    'Connection: close',
    '',
    body,
  ].join('\r\n')
}

function onClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  // As Node's own handler: answer unless a response on this connection has begun to be written.
  const busy = Boolean((socket as Socket & { _httpMessage?: { _headerSent?: boolean } | null })._httpMessage?._headerSent)
  if (error.code === 'ECONNRESET' || !socket.writable || busy) {
    socket.destroy()
    return
  }
  socket.end(parserErrorResponse(error.code), () => socket.destroy())
}

/**
 * Requests Node's own HTTP parser refuses (headers too large, a bad
 * Content-Length, Content-Length with Transfer-Encoding, ...) never reach h3,
 * and Node answers them with an empty body. Nitro creates its server after the
 * plugins run and hands it to no hook, so the server is met through its first
 * accepted connection (diagnostics channel `net.server.socket`, published
 * before the connection is parsed) and given a `clientError` handler that
 * answers in the error shape.
 */
export default defineNitroPlugin(() => {
  const handled = new WeakSet<object>()
  subscribe('net.server.socket', (message) => {
    const server = (message as { socket?: Socket & { server?: unknown } }).socket?.server
    if (!(server instanceof HttpServer || server instanceof HttpsServer) || handled.has(server)) return
    handled.add(server)
    server.on('clientError', onClientError)
  })
})
