import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { registerUser } from '../support/api'
import { seedUpload } from '../support/seed'
import { startServer, type RunningServer } from '../support/server'

// Own server: the feed's pages are counted, so only these 30 public uploads may exist.
let server: RunningServer
/** Newest first. */
const ids: string[] = []
const UPLOADS = 30

beforeAll(async () => {
  server = await startServer()
  const owner = await registerUser({}, server.url)
  for (let i = 0; i < UPLOADS; i++) {
    ids.push(await seedUpload(owner, { uploadType: 'link', externalUrl: `https://example.com/page-size-${i}`, description: `Page size ${i}`, createdAt: new Date(Date.now() - (i + 1) * 60_000).toISOString() }, server))
  }
})
afterAll(async () => {
  await server?.stop()
})

/** The home page as rendered on the server: the feed's cards (the full-size ones; the two rows above are compact), its links and its choices. */
async function home(query: string) {
  const response = await fetch(`${server.url}/${query}`)
  expect(response.status).toBe(200)
  const html = await response.text()
  const feed = html.slice(html.indexOf('id="feed-title"'))
  return {
    cards: [...feed.matchAll(/<article class="card upload-card" [^>]*data-upload-id="([^"]+)"/g)].map(match => match[1]),
    next: /<a [^>]*href="([^"]+)"[^>]*rel="next"/.exec(feed)?.[1]?.replaceAll('&amp;', '&'),
    sortTop: /<a [^>]*href="([^"]+)"[^>]*data-testid="sort-top"/.exec(feed)?.[1]?.replaceAll('&amp;', '&'),
    selected: [...feed.matchAll(/<option value="(\d+)" selected[ >]/g)].map(match => match[1]),
  }
}

describe('the feed page size (?limit=)', () => {
  it('is 12 by default, with a next page', async () => {
    expect(await home('')).toEqual({ cards: ids.slice(0, 12), next: '/?page=2', sortTop: '/?sort=top', selected: ['12'] })
  })

  it('shows 24 or 48 when asked, and keeps the size in the next page and the sort links', async () => {
    expect(await home('?limit=24')).toEqual({ cards: ids.slice(0, 24), next: '/?limit=24&page=2', sortTop: '/?sort=top&limit=24', selected: ['24'] })
    expect(await home('?limit=24&page=2')).toEqual({ cards: ids.slice(24), next: undefined, sortTop: '/?sort=top&limit=24', selected: ['24'] })
    expect(await home('?limit=48')).toEqual({ cards: ids, next: undefined, sortTop: '/?sort=top&limit=48', selected: ['48'] })
  })

  it('takes any size it does not offer as the default', async () => {
    for (const limit of ['13', '100', '0', 'all']) {
      expect(await home(`?limit=${limit}`), limit).toEqual({ cards: ids.slice(0, 12), next: `/?limit=${limit}&page=2`, sortTop: '/?sort=top', selected: ['12'] })
    }
  })
})
