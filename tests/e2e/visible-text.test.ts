import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { api, registerUser } from '../support/api'
import { postUpload } from '../support/uploads'

const TAG_MESSAGE = 'Tag names must be 2 to 50 characters of letters, digits, spaces and hyphens'
const link = (fields: Record<string, string>) => ({ upload_type: 'link', external_url: `https://example.com/${randomUUID()}`, description: 'A link', ...fields })

describe('text that shows nothing is refused; bidi controls are dropped from tags', () => {
  it('refuses a description of only zero-width or filler characters', async () => {
    const user = await registerUser()
    for (const description of ['\u200B', '\u200B\u200C\u200D\u2060', '\u3164\u3164', '\u202E\u2066\u2069']) {
      const response = await postUpload(user, link({ description }))
      expect(response.status, JSON.stringify(description)).toBe(400)
      expect(response.body).toMatchObject({ statusCode: 400, statusMessage: 'Bad Request', message: 'Description must contain a visible character' })
    }
  })

  it('refuses a tag of only Hangul fillers on upload and when adding tags', async () => {
    const user = await registerUser()
    const upload = await postUpload(user, link({ tags: 'fine, \u3164\u3164' }))
    expect(upload.status).toBe(400)
    expect(upload.body).toMatchObject({ statusCode: 400, statusMessage: 'Bad Request', message: TAG_MESSAGE })

    const created = await postUpload(user, link({}))
    expect(created.status).toBe(201)
    const added = await api(`/api/uploads/${created.body.upload.id}/tags`, { method: 'POST', token: user.token, body: { tags: ['\u3164\u3164\u3164'] } })
    expect(added.status).toBe(400)
    expect(added.body).toMatchObject({ statusCode: 400, statusMessage: 'Bad Request', message: TAG_MESSAGE })
  })

  it('stores tags without bidi controls, so a reversed copy is the same tag', async () => {
    const user = await registerUser()
    const name = `bidi ${randomUUID().slice(0, 8)}`
    // Names of their own: a tag row is shared, and another test may have made `Cats` first.
    const cats = `cats ${randomUUID().slice(0, 8)}`
    const dogs = `dogs ${randomUUID().slice(0, 8)}`
    const created = await postUpload(user, link({ tags: `\u202E${name}\u202C, \u2067${cats}\u2069` }))
    expect(created.status).toBe(201)
    const id = created.body.upload.id
    const tags = (await api(`/api/uploads/${id}/tags`)).body.tags.map((tag: { name: string, slug: string }) => [tag.name, tag.slug])
    expect(tags).toEqual([[name, name.replace(' ', '-')], [cats, cats.replace(' ', '-')]])

    const again = await api(`/api/uploads/${id}/tags`, { method: 'POST', token: user.token, body: { tags: [`\u2066${name}\u2069`, `${dogs}\u200F`] } })
    expect(again.status).toBe(200)
    expect(again.body.added).toBe(1)
    expect(again.body.tags.map((tag: { name: string }) => tag.name)).toEqual([name, cats, dogs])
  })
})
