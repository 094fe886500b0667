import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { $fetch } from 'ofetch'
import { errorMessage, TIMEOUT_MESSAGE } from '../../composables/useApi'

/** What a person reads for a request that failed, from the errors $fetch really throws. */
describe('the sentence for a failed request', () => {
  let server: Server
  let url: string
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/hang') return // never answers
      res.writeHead(400, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ statusCode: 400, statusMessage: 'Bad Request', message: 'Invalid tag' }))
    })
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => {
    server.closeAllConnections()
    server.close()
  })

  const failure = (path: string, options: { timeout?: number, method?: 'GET' | 'POST' } = {}) =>
    $fetch(`${url}${path}`, { retry: 0, ...options }).then(() => expect.unreachable(), (error: unknown) => error)

  it('says the server did not answer in time, alone or wrapped as useAsyncData wraps it', async () => {
    const error = await failure('/hang', { timeout: 100, method: 'POST' })
    expect(errorMessage(error)).toBe(TIMEOUT_MESSAGE)
    expect(errorMessage({ cause: error })).toBe(TIMEOUT_MESSAGE)
  })

  it('gives the API\'s own message, and the connection sentence when nothing answered', async () => {
    expect(errorMessage(await failure('/bad'))).toBe('Invalid tag')
    // Port 1: nothing listens there, the connection is refused.
    const refused = await $fetch('http://127.0.0.1:1/', { retry: 0 }).catch((error: unknown) => error)
    expect(errorMessage(refused)).toBe('Could not reach the server. Check your connection.')
  })
})
