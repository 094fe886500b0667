import { describe, expect, it } from 'vitest'
import { api, registerUser } from '../support/api'
import { seedUpload } from '../support/seed'

// Blind voting: a server-rendered page for a signed-in account with it on carries no count
// of a card the account has not voted on, in the markup or in the payload that hydrates it.
describe('a list page with blind voting on', () => {
  it('leaves the counts of cards not voted on out of the HTML and payload, and keeps those voted on', async () => {
    const owner = await registerUser()
    const viewer = await registerUser()
    const tag = `blind-${owner.id.slice(0, 8)}`
    const unvoted = await seedUpload(owner, { description: 'Not voted on yet', upvotes: 7301, downvotes: 4127, tags: [tag] })
    const voted = await seedUpload(owner, { description: 'Voted on already', upvotes: 5923, downvotes: 3119, tags: [tag] })
    expect((await api('/api/vote', { method: 'POST', token: viewer.token, body: { uploadId: voted, vote: 'fucks' } })).status).toBe(200)
    const put = await api('/api/profile/filters', { method: 'PUT', token: viewer.token, body: { hiddenTags: [], blindVoting: true } })
    expect(put.body).toEqual({ hiddenTags: [], blindVoting: true })

    for (const path of [`/user/${owner.username}`, `/tags/${tag}`]) {
      const page = await api(path, { token: viewer.token })
      expect(page.status, path).toBe(200)
      const html = page.body as string
      expect(html, path).toContain(unvoted)
      expect(html, path).toContain(voted)
      // Its counts, vote count and rating ((10·7301 + 4127) / 11428 = 6.75) appear nowhere.
      // As a number of its own: the same digits inside an id or a hash (`a7301f`, `-7301-`) are not a count.
      for (const count of ['7301', '4127', '11428', '6.75']) expect(html, `${path}: ${count}`).not.toMatch(new RegExp(`(?<![\\w.-])${count.replace('.', '\\.')}(?![\\w-]|\\.\\d)`))
      expect(html, path).toContain('5924 fucks')
      expect(html, path).toContain('3119 against')
      expect(html, path).toContain('Blind voting: vote to see how others voted.')
    }

    // Without blind voting the same page shows both cards' counts.
    await api('/api/profile/filters', { method: 'PUT', token: viewer.token, body: { hiddenTags: [], blindVoting: false } })
    const open = (await api(`/user/${owner.username}`, { token: viewer.token })).body as string
    expect(open).toContain('7301 fucks')
    expect(open).toContain('5924 fucks')
    expect(open).not.toContain('Blind voting: vote to see how others voted.')
  })
})
