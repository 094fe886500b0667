import { connect } from 'node:net'
import { describe, expect, it } from 'vitest'
import { api } from '../support/api'
import { sharedServer } from '../support/shared-server'

/** Sends raw bytes on a fresh connection and reads everything until the server closes it. */
function rawExchange(request: string): Promise<{ status: number, reason: string, headers: Record<string, string>, body: string }> {
  const url = new URL(sharedServer().baseURL)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname)
    const chunks: Buffer[] = []
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')))
    socket.on('data', chunk => chunks.push(chunk))
    socket.on('error', reject)
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      const [head = '', body = ''] = text.split('\r\n\r\n')
      const [statusLine = '', ...lines] = head.split('\r\n')
      const match = /^HTTP\/1\.1 (\d{3}) (.*)$/.exec(statusLine)
      if (!match) return reject(new Error(`not an HTTP answer: ${JSON.stringify(text)}`))
      const headers = Object.fromEntries(lines.map(line => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]))
      resolve({ status: Number(match[1]), reason: match[2]!, headers, body })
    })
    socket.on('connect', () => socket.write(request))
  })
}

describe('requests Node\'s HTTP parser refuses are answered in the error shape', () => {
  const host = () => new URL(sharedServer().baseURL).host

  it('431 for headers over the limit', async () => {
    const answer = await rawExchange(`GET /api/uploads HTTP/1.1\r\nHost: ${host()}\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`)
    expect(answer.status).toBe(431)
    expect(answer.reason).toBe('Request Header Fields Too Large')
    expect(answer.headers['content-type']).toBe('application/json')
    expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body))
    expect(JSON.parse(answer.body)).toEqual({ statusCode: 431, statusMessage: 'Request Header Fields Too Large', message: 'Request headers too large' })
  })

  it.each([
    ['a Content-Length that is not a number', 'Content-Length: abc\r\n'],
    ['two different Content-Lengths', 'Content-Length: 2\r\nContent-Length: 3\r\n'],
    ['Content-Length together with Transfer-Encoding', 'Content-Length: 2\r\nTransfer-Encoding: chunked\r\n'],
    ['a chunked body with a malformed chunk size', 'Transfer-Encoding: chunked\r\n'],
  ])('400 for %s', async (_, framing) => {
    const answer = await rawExchange(`POST /api/auth HTTP/1.1\r\nHost: ${host()}\r\nContent-Type: application/json\r\n${framing}\r\n{}`)
    expect(answer.status).toBe(400)
    expect(answer.reason).toBe('Bad Request')
    expect(answer.headers['content-type']).toBe('application/json')
    expect(answer.headers.connection).toBe('close')
    expect(JSON.parse(answer.body)).toEqual({ statusCode: 400, statusMessage: 'Bad Request', message: 'Malformed HTTP request' })
  })

  it('keeps serving after refusing malformed requests', async () => {
    await rawExchange('NOT HTTP AT ALL\r\n\r\n').catch(() => undefined)
    expect((await api('/api/uploads')).status).toBe(200)
  })
})
