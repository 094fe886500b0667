import { beforeAll, describe, expect, it } from 'vitest'
import { registerUser, type TestUser } from '../support/api'
import { pagePayload, revivePayload } from '../support/payload'
import { seedUpload } from '../support/seed'
import { sharedServer } from '../support/shared-server'

/**
 * API answers read while a page renders travel as data blocks of their own,
 * their JSON text escaped for the <script> it sits in, named in the payload
 * by number (plugins/api-answers.ts). Each page is checked against its own
 * markup, so uploads made by other tests meanwhile do not matter.
 */
const TRICKY = 'Quote " backslash \\ </script><script>window.__injected = 1</script> line\u2028separator & <b>bold</b>'

let owner: TestUser
const ids: string[] = []

beforeAll(async () => {
  owner = await registerUser()
  for (let i = 0; i < 3; i++) ids.unshift(await seedUpload(owner, { uploadType: 'link', externalUrl: `https://example.com/payload-${i}`, description: i === 2 ? TRICKY : `Payload ${i}`, createdAt: new Date(Date.now() - (3 - i) * 1000).toISOString() }))
})

interface Card { id: string, description: string }
/** A list answer: `items` (recent, top) or `uploads` (pages of a list). */
interface Answer { items?: Card[], uploads?: Card[] }
const listed = (answer: Answer | undefined) => (answer?.items ?? answer?.uploads)?.map(card => card.id)

async function page(path: string) {
  const response = await fetch(new URL(path, sharedServer().baseURL))
  expect(response.status).toBe(200)
  const html = await response.text()
  const { flat, answers } = pagePayload(html)
  // flat[1] is the payload, flat[3] its `data`: each key names the index of its entry.
  const data = flat[(flat[1] as { data: number }).data + 1] as Record<string, number>
  return { html, flat, data, answers, revived: revivePayload(flat, answers) as { data: Record<string, Answer> } }
}

const cardIds = (markup: string) => [...markup.matchAll(/<article class="card upload-card[^"]*" [^>]*data-upload-id="([^"]+)"/g)].map(match => match[1])

describe('the page payload', () => {
  it('carries a user page\'s list as the API\'s JSON, escaped, read back exactly', async () => {
    const { html, flat, data, answers, revived } = await page(`/user/${owner.username}`)
    const [key] = Object.keys(data).filter(name => name.includes(owner.username))
    expect(key).toBeDefined()
    const [tag, number] = flat[data[key!]!] as [string, number]
    expect(tag).toBe('ApiAnswer')
    // The blocks are numbered from 1, none missing; `<` is escaped in the JSON.
    expect([...answers.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: answers.size }, (_, i) => i + 1))
    const block = html.match(new RegExp(`<script type="application/json" data-api-answer="${flat[number]}">([^<]*)</script>`))
    expect(block![1]).toContain('\\u003c/script>\\u003cscript>window.__injected = 1\\u003c/script>')
    const answer = revived.data[key!]
    expect(listed(answer)).toEqual(ids)
    expect(listed(answer)).toEqual(cardIds(html))
    expect(answer!.uploads![0]!.description).toBe(TRICKY)
    // Nothing in the payload closes its <script>.
    expect(html).not.toContain('</script><script>window.__injected')
    expect(html.match(/<\/script>/g)!.length).toBe(html.match(/<script[\s>]/g)!.length)
  })

  it('carries the home page\'s lists as the API\'s JSON, the cards it rendered', async () => {
    const { html, flat, data, revived } = await page('/')
    for (const key of ['home:recent', 'home:top', 'home:tags']) expect((flat[data[key]!] as unknown[])[0], key).toBe('ApiAnswer')
    const recent = html.slice(html.indexOf('id="recent-title"'), html.indexOf('id="top-title"'))
    expect(listed(revived.data['home:recent'])).toEqual(cardIds(recent))
    const [feedKey] = Object.keys(data).filter(name => name.startsWith('feed:'))
    expect((flat[data[feedKey!]!] as unknown[])[0]).toBe('ApiAnswer')
    expect(listed(revived.data[feedKey!])).toEqual(cardIds(html.slice(html.indexOf('id="feed-title"'))))
  })
})
