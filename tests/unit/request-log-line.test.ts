import { Writable } from 'node:stream'
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { requestLineJson, type RequestLine } from '../../server/utils/logger'

const TIME = '2026-12-05T23:10:00.123Z'

/** The line pino writes for `line` with the server's options (server/utils/logger.ts) at TIME. */
function pinoLine(line: RequestLine): string {
  let written = ''
  const sink = new Writable({ write(chunk: Buffer, _encoding, done) {
    written += chunk.toString()
    done()
  } })
  const logger = pino({ base: null, timestamp: () => `,"time":"${TIME}"`, formatters: { level: label => ({ level: label }) } }, sink)
  logger.info(line, 'request')
  return written
}

describe('a request\'s log line, built without pino', () => {
  it.each<RequestLine>([
    { requestId: 'c0a8a0d4-1b2c-4d5e-8f90-123456789abc', method: 'GET', route: '/api/uploads', status: 200, durationMs: 1.76, clientIp: '127.0.0.1' },
    { requestId: 'edge-42.a_b', method: 'other', route: '/api/upload/[id]', status: 404, durationMs: 0, clientIp: '2001:db8:1:2::/64' },
    { requestId: 'x', method: 'POST', route: '/api/upload', status: 503, durationMs: 10_000.5, clientIp: '203.0.113.9', cut: 'shutdown' },
    { requestId: 'q"uote\\', method: 'GET', route: '/odd "route"\n', status: 499, durationMs: 12.34, clientIp: 'é' },
  ])('is the line pino writes for $requestId', (line) => {
    const ours = requestLineJson(line, TIME)
    expect(ours).toBe(pinoLine(line))
    expect(JSON.parse(ours)).toEqual({ level: 'info', time: TIME, ...line, msg: 'request' })
  })
})
