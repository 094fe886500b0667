import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, registerUser } from '../support/api'
import { startServer, type RunningServer } from '../support/server'

describe('GET /api/health', () => {
  it('answers 200 with every part, never cached', async () => {
    const response = await api('/api/health')
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ status: 'ok', database: 'ok', redis: 'off', storage: 'ok' })
    expect(response.headers.get('cache-control')).toBe('no-store')
  })
})

describe('SIGTERM', () => {
  let server: RunningServer

  beforeAll(async () => {
    server = await startServer()
  })

  afterAll(async () => {
    await server.stop()
  })

  it('finishes a request in flight, refuses new connections, closes and exits 0', async () => {
    const user = await registerUser({}, server.url)
    const boundary = 'shutdown-boundary'
    const part = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`
    const body = part('upload_type', 'link') + part('external_url', 'https://example.com/in-flight') + part('description', 'sent across a shutdown') + `--${boundary}--\r\n`
    const answer = new Promise<{ status: number, body: string }>((resolve, reject) => {
      const req = request(`${server.url}/api/upload`, {
        method: 'POST',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': Buffer.byteLength(body), 'cookie': `auth-token=${user.token}` },
      }, (res) => {
        let text = ''
        res.on('data', (chunk: Buffer) => text += chunk.toString())
        res.on('end', () => resolve({ status: res.statusCode!, body: text }))
      })
      req.on('error', reject)
      // Half the body now, the rest after the signal.
      req.write(body.slice(0, 40))
      setTimeout(() => {
        server.process.kill('SIGTERM')
        setTimeout(() => req.end(body.slice(40)), 300)
      }, 300)
    })
    const exited = new Promise<number | null>(resolve => server.process.once('exit', code => resolve(code)))
    const finished = await answer
    expect(finished.status).toBe(201)
    expect(JSON.parse(finished.body).upload.description).toBe('sent across a shutdown')
    await expect(fetch(`${server.url}/api/health`)).rejects.toThrow()
    expect(await exited).toBe(0)
  })
})
