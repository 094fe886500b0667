import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api } from '../support/api'
import { startServer, type RunningServer } from '../support/server'

/** Rate-limit buckets are keyed by the canonical client address (server/utils/client-ip.ts). */
describe('rate-limit keys under NUXT_TRUST_PROXY', () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startServer({
      NUXT_TRUST_PROXY: 'true',
      NUXT_RATE_LIMIT_ENABLED: 'true',
      NUXT_RATE_LIMIT_GENERAL_MAX: '50',
      NUXT_RATE_LIMIT_GENERAL_WINDOW_SECONDS: '600',
    })
  })
  afterAll(() => server?.stop())

  const remainingFor = async (forwardedFor?: string) => {
    const response = await api('/api/tags', { baseURL: server.url, headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor } })
    expect(response.status, String(forwardedFor)).toBe(200)
    return Number(response.headers.get('ratelimit-remaining'))
  }

  it('counts every spelling of one IPv4 address in one bucket', async () => {
    const spellings = ['5.6.7.8', '::ffff:506:708', '5.6.7.8:1234', '[::ffff:5.6.7.8]', '::ffff:5.6.7.8', '[::ffff:506:708]:443']
    const remaining = []
    for (const spelling of spellings) remaining.push(await remainingFor(spelling))
    expect(remaining).toEqual([49, 48, 47, 46, 45, 44])
    expect(await remainingFor('9.9.9.9')).toBe(49)
  })

  it('counts one IPv6 /64 in one bucket, and the next /64 in its own', async () => {
    expect(await remainingFor('2001:db8:1:2::1')).toBe(49)
    expect(await remainingFor('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe(48)
    expect(await remainingFor('[2001:0db8:0001:0002::9]:8080')).toBe(47)
    expect(await remainingFor('2001:db8:1:3::1')).toBe(49)
  })

  it('ignores invalid forwarded values: they count against the socket address', async () => {
    const socket = await remainingFor()
    const values = ['junk', '05.06.07.08', 'unknown', '1.2.3.4.5', '<script>']
    const remaining = []
    for (const value of values) remaining.push(await remainingFor(value))
    expect(remaining).toEqual(values.map((_, i) => socket - 1 - i))
  })
})
