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

  it('names the site URL only when it differs from the address to open', () => {
    const info = { dataDir: '/srv/data', url: 'http://localhost:3000', firstStart: true, database: 'sqlite' as const }
    expect(startBanner({ ...info, siteUrl: 'http://localhost:3000/' }).join('\n')).not.toContain('Site URL')
    expect(startBanner({ ...info, siteUrl: 'https://dif.example' }).join('\n')).toContain('Site URL: https://dif.example')
  })
})
