import { describe, expect, it } from 'vitest'
import { openUrl, startBanner } from '../../server/utils/start-banner'

describe('the address to open', () => {
  it.each([
    [undefined, 'http://localhost:3000'],
    ['', 'http://localhost:3000'],
    ['0.0.0.0', 'http://localhost:3000'],
    ['::', 'http://localhost:3000'],
    ['[::]', 'http://localhost:3000'],
    ['0:0:0:0:0:0:0:0', 'http://localhost:3000'],
    ['127.0.0.1', 'http://127.0.0.1:3000'],
    ['::1', 'http://[::1]:3000'],
    ['example.org', 'http://example.org:3000'],
  ])('HOST=%s → %s', (host, url) => {
    expect(openUrl(host, 3000)).toBe(url)
  })

  it('points at the "Listening on" line for PORT=0, whose port is known only once listening', () => {
    expect(openUrl('', '0')).toBe('http://localhost:<port> (PORT=0: the port of the "Listening on" line above)')
  })

  it('names the site URL only when it differs from the address to open', () => {
    const info = { dataDir: '/srv/data', url: 'http://localhost:3000', firstStart: true, database: 'sqlite' as const }
    expect(startBanner({ ...info, siteUrl: 'http://localhost:3000/' }).join('\n')).not.toContain('Site URL')
    expect(startBanner({ ...info, siteUrl: 'https://dif.example' }).join('\n')).toContain('Site URL: https://dif.example')
  })

  it('names the bucket, and no media/ folder, when media are kept in S3', () => {
    const info = { dataDir: '/srv/data', url: 'http://localhost:3000', siteUrl: 'http://localhost:3000', firstStart: false, database: 'postgresql' as const }
    expect(startBanner({ ...info, bucket: 'dif-media' })).toEqual(['Does It Fuck? · data: /srv/data (outbox/); database and secrets: PostgreSQL (NUXT_DATABASE_URL); '
      + 'media: bucket "dif-media" (NUXT_MEDIA_STORAGE=s3) · open http://localhost:3000'])
    expect(startBanner(info)[0]).toContain('/srv/data (media/, outbox/); database')
  })

  it('names Redis by its address, never its password', () => {
    const info = { dataDir: '/srv/data', url: 'http://localhost:3000', siteUrl: 'http://localhost:3000', firstStart: false, database: 'postgresql' as const }
    expect(startBanner({ ...info, redis: '10.0.0.5:6379' })[0]).toContain('; Redis: 10.0.0.5:6379 (NUXT_REDIS_URL) · open')
  })
})
