import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { launchBrowser } from '../support/browser'
import { api, type TestUser } from '../support/api'
import { makeAdmin } from '../support/seed'
import { goto, hydrated, registerUser, seedLink, signedInContext, watchErrors } from './helpers'
import { sharedServer } from '../support/shared-server'

describe('the comment thread', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await launchBrowser()
  })
  afterAll(() => browser?.close())

  it('previews without posting, posts, replies and votes; hostile Markdown runs nothing', async () => {
    const [owner, writer] = await Promise.all([registerUser(), registerUser()])
    const id = await seedLink(owner, { description: `Comment on me ${randomUUID().slice(0, 8)}` })
    // A hostile comment from someone else, already there.
    const hostile = await api(`/api/upload/${id}/comments`, { method: 'POST', token: owner.token, body: {
      body: '<img src=x onerror="window.__pwned=1"> <script>window.__pwned=2</script> [x](javascript:window.__pwned=3) ![i](http://127.0.0.1:9/i.png)',
    } })
    expect(hostile.status).toBe(201)
    const context = await signedInContext(browser, writer)
    const page = await context.newPage()
    const errors = watchErrors(page)
    await goto(page, `/upload/${id}`)
    const thread = page.locator('[data-testid=comments]')
    const focused = () => page.evaluate(() => `${document.activeElement?.id || document.activeElement?.getAttribute('data-testid')} in ${document.activeElement?.closest('li')?.id}`)
    await thread.locator(`[data-testid=comment-${hostile.body.comment.id}]`).waitFor()
    const hostileHtml = thread.locator(`[data-testid=comment-${hostile.body.comment.id}] [data-testid=comment-html]`)
    await expect(hostileHtml.locator('img, script').count()).resolves.toBe(0)
    await expect(hostileHtml.locator('a[href^="javascript"]').count()).resolves.toBe(0)
    await expect(hostileHtml.locator('a').getAttribute('rel')).resolves.toBe('nofollow ugc noopener')
    await expect(hostileHtml.innerText()).resolves.toContain('<script>window.__pwned=2</script>')

    // Quotes and code stand out in both themes: a quote's bar, a code panel whose long line scrolls inside it.
    // A long word or address wraps in the preview as in a posted comment: the page never gets wider.
    await thread.locator('[data-testid=comment-body]').fill(`> A quote\n\n\`\`\`\n${'long_code_line '.repeat(30)}\n\`\`\`\n\nSome \`code\`\n\n${'w'.repeat(300)} https://example.com/${'p'.repeat(300)}`)
    await thread.locator('[data-testid=comment-tab-preview]').click()
    await thread.locator('[data-testid=comment-preview] pre').waitFor()
    const looks = () => page.evaluate(() => {
      const preview = document.querySelector('[data-testid=comment-preview]')!
      const quote = getComputedStyle(preview.querySelector('blockquote')!)
      const pre = preview.querySelector('pre')!
      const block = getComputedStyle(pre)
      return {
        quote: `${quote.borderLeftStyle} ${quote.borderLeftWidth}`,
        code: `${block.backgroundColor} ${block.borderTopStyle} ${block.overflowX}`,
        inline: getComputedStyle(preview.querySelector('p > code')!).backgroundColor,
        scrolls: pre.scrollWidth > pre.clientWidth && pre.getBoundingClientRect().right <= preview.getBoundingClientRect().right,
        wraps: preview.scrollWidth <= preview.clientWidth && document.documentElement.scrollWidth <= innerWidth,
      }
    })
    await expect(looks()).resolves.toEqual({ quote: 'solid 4px', code: 'rgb(240, 242, 247) solid auto', inline: 'rgb(240, 242, 247)', scrolls: true, wraps: true })
    await page.emulateMedia({ colorScheme: 'dark' })
    await expect(looks()).resolves.toEqual({ quote: 'solid 4px', code: 'rgb(31, 35, 48) solid auto', inline: 'rgb(31, 35, 48)', scrolls: true, wraps: true })
    await page.emulateMedia({ colorScheme: 'light' })
    await thread.locator('[data-testid=comment-tab-write]').click()

    // Write, then Preview: rendered by the server, nothing posted.
    await thread.locator('[data-testid=comment-body]').fill('It **does** <script>window.__pwned=4</script>')
    await thread.locator('[data-testid=comment-tab-preview]').click()
    const preview = thread.locator('[data-testid=comment-preview]')
    await preview.locator('strong').waitFor()
    await expect(preview.innerHTML()).resolves.toBe('<p>It <strong>does</strong> &lt;script&gt;window.__pwned=4&lt;/script&gt;</p>')
    expect((await api(`/api/upload/${id}/comments`)).body.total).toBe(1)

    // Post (the Write tab keeps the draft), then reply to the new comment by keyboard.
    await thread.locator('[data-testid=comment-tab-write]').click()
    await thread.locator('[data-testid=comment-submit]').click()
    await expect.poll(async () => (await api(`/api/upload/${id}/comments`)).body.total).toBe(2)
    const mine = (await api(`/api/upload/${id}/comments`)).body.comments[0]
    expect(mine).toMatchObject({ author: { username: writer.username }, body: 'It **does** <script>window.__pwned=4</script>' })
    const item = thread.locator(`[data-testid=comment-${mine.id}]`)
    await item.locator('[data-testid=comment-html] strong').waitFor()
    await expect(thread.locator('[data-testid=comment-body]').inputValue()).resolves.toBe('')
    // The focus is on the comment just posted, not lost to the page.
    await expect.poll(focused).toBe(`comment-${mine.id} in comment-${mine.id}`)
    await item.locator('[data-testid=comment-reply]').focus()
    await page.keyboard.press('Enter')
    await expect.poll(focused).toBe(`comment-inline-body in comment-${mine.id}`)
    await page.keyboard.type('A *reply*')
    await page.keyboard.press('Tab')
    await page.keyboard.press('Enter')
    await expect.poll(async () => (await api(`/api/upload/${id}/comments`)).body.comments[0].replies.length).toBe(1)
    await thread.locator('.comment-reply [data-testid=comment-html] em').waitFor()
    const replyId = (await api(`/api/upload/${id}/comments`)).body.comments[0].replies[0].id
    await expect.poll(focused).toBe(`comment-${replyId} in comment-${replyId}`)

    // Vote up by keyboard: while the vote is on its way only this comment's buttons wait (aria-disabled,
    // so the focus stays); then pressed, the score moves, the focus is still there, and the API agrees.
    let letVoteThrough!: () => void
    const held = new Promise<void>((resolve) => {
      letVoteThrough = resolve
    })
    await page.route('**/api/comments/*/vote', async (route) => {
      await held
      await route.continue()
    })
    await item.locator('[data-testid=comment-up]').focus()
    await page.keyboard.press('Enter')
    await expect.poll(() => item.locator('[data-testid=comment-up]').getAttribute('aria-disabled')).toBe('true')
    const otherUp = thread.locator(`[data-testid=comment-${hostile.body.comment.id}] [data-testid=comment-up]`)
    await expect(otherUp.isEnabled()).resolves.toBe(true)
    await expect(otherUp.getAttribute('aria-disabled')).resolves.toBe(null)
    letVoteThrough()
    await page.waitForFunction(cid => document.querySelector(`[data-testid=comment-${cid}] [data-testid=comment-up]`)?.getAttribute('aria-pressed') === 'true', mine.id)
    await page.unroute('**/api/comments/*/vote')
    await expect(item.locator('[data-testid=comment-score]').first().innerText()).resolves.toBe('1')
    await expect(item.locator('[data-testid=comment-down]').getAttribute('aria-label')).resolves.toBe('Vote down (score 1)')
    await expect(item.locator('[data-testid=comment-up]').getAttribute('aria-disabled')).resolves.toBe(null)
    await expect(focused()).resolves.toBe(`comment-up in comment-${mine.id}`)
    expect((await api(`/api/upload/${id}/comments`, { token: writer.token })).body.comments[0]).toMatchObject({ score: 1, myVote: 'up' })

    // Report someone else's comment with the thread's one report dialog (no Report on one's own).
    await expect(item.locator('[data-testid=comment-report-open]').count()).resolves.toBe(0)
    const other = thread.locator(`[data-testid=comment-${hostile.body.comment.id}]`)
    await other.locator('[data-testid=comment-report-open]').click()
    const dialog = thread.locator('[data-testid=comment-report-dialog]')
    await expect(dialog.locator('h2').innerText()).resolves.toBe('Report this comment')
    await dialog.locator('[data-testid=comment-report-reason-spam]').check()
    await dialog.locator('[data-testid=comment-report-submit]').click()
    await other.locator('[data-testid=comment-report-status]', { hasText: 'the report was sent to the moderators' }).waitFor()
    await expect(page.evaluate(() => document.activeElement?.closest('li')?.id)).resolves.toBe(`comment-${hostile.body.comment.id}`)
    const again = await api(`/api/comments/${hostile.body.comment.id}/report`, { method: 'POST', token: writer.token, body: { reason: 'other' } })
    expect(again).toMatchObject({ status: 409, body: { message: 'Already reported' } })

    // Delete the reply: its row goes, and the focus moves to the next row.
    await thread.locator(`[data-testid=comment-${replyId}] [data-testid=comment-delete]`).click()
    await thread.getByRole('button', { name: 'Yes, delete' }).click()
    await expect.poll(() => thread.locator(`[data-testid=comment-${replyId}]`).count()).toBe(0)
    await expect.poll(focused).toBe(`comment-${hostile.body.comment.id} in comment-${hostile.body.comment.id}`)

    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined()
    expect(errors).toEqual([])
    await context.close()
  })

  it('come with the page\'s HTML (first page, no shadow-banned author\'s), hydrate without a fetch, and page and post in the browser', async () => {
    const [owner, writer, banned, admin] = await Promise.all([registerUser(), registerUser(), registerUser(), registerUser()])
    await makeAdmin(admin)
    const id = await seedLink(owner, { description: `Thread served ${randomUUID().slice(0, 8)}` })
    const comment = async (user: TestUser, body: string, parentId?: string) => {
      const response = await api(`/api/upload/${id}/comments`, { method: 'POST', token: user.token, body: { body, ...(parentId ? { parentId } : {}) } })
      expect(response.status).toBe(201)
      return response.body.comment as { id: string, createdAt: string }
    }
    // 21 top-level comments anyone sees: the first page (newest first, 20) leaves out the oldest.
    const oldest = await comment(writer, 'The *oldest* one')
    // One reply: the heading counts it, the pages do not.
    await comment(owner, 'An answer to the first', oldest.id)
    for (let i = 0; i < 19; i++) await comment(writer, `Comment number ${i}`)
    const hidden = await comment(banned, 'Shadow words')
    expect((await api(`/api/admin/users/${banned.id}/shadow-ban`, { method: 'POST', token: admin.token, body: { shadowBanned: true } })).status).toBe(200)
    const newest = await comment(writer, 'Newest **bold** <b>raw</b>')

    // The HTML as served, no JavaScript: a visitor's, then the shadow-banned author's own.
    const served = async (user?: TestUser) => {
      const response = await fetch(`${sharedServer().baseURL}/upload/${id}`, { headers: user ? { cookie: `auth-token=${user.token}` } : {} })
      expect(response.status).toBe(200)
      return response.text()
    }
    const html = await served()
    expect(html).toContain('<p>Newest <strong>bold</strong> &lt;b&gt;raw&lt;/b&gt;</p>')
    expect(html).toMatch(new RegExp(`<li id="comment-${newest.id}"[^>]*>\\s*<p[^>]*><strong[^>]*>${writer.username}</strong> · <time datetime="${newest.createdAt}"`))
    expect(html).toMatch(/Comments<span class="muted"[^>]*> \(22\)<\/span>/)
    expect(html).toContain('Comment number 0')
    expect(html).not.toContain('oldest')
    expect(html).not.toContain('Shadow words')
    expect(html).not.toContain(hidden.id)
    expect(await served(banned)).toContain('<p>Shadow words</p>')
    // A visitor is told why the votes are off, and signing in comes back to the upload.
    expect(html).toMatch(new RegExp(`<a [^>]*href="/login\\?redirect=/upload/${id}"[^>]*data-testid="comments-sign-in"[^>]*>\\s*Sign in\\s*</a> to comment and vote on comments\\.`))
    expect(html).toMatch(/<button[^>]*aria-label="Vote down \(score 0\)"[^>]*disabled[^>]*title="Sign in to vote on comments"/)

    // In the browser: no request for the comments while the page loads and hydrates, no complaint.
    const context = await signedInContext(browser, writer)
    const page = await context.newPage()
    const complaints: string[] = []
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') complaints.push(`${message.type()}: ${message.text()}`)
    })
    page.on('pageerror', error => complaints.push(error.message))
    const fetched: string[] = []
    page.on('request', (request) => {
      if (request.url().includes(`/api/upload/${id}/comments`)) fetched.push(`${request.method()} ${request.url()}`)
    })
    await goto(page, `/upload/${id}`)
    const thread = page.locator('[data-testid=comments]')
    await expect(thread.locator(`[data-testid=comment-${newest.id}] [data-testid=comment-html] strong`).innerText()).resolves.toBe('bold')
    expect(fetched).toEqual([])

    // The next page is fetched in the browser.
    await thread.getByRole('button', { name: 'Next page' }).click()
    await thread.locator(`[data-testid=comment-${oldest.id}] em`).waitFor()
    // "Next page" is disabled on the last page: the focus moves to the heading, where the page starts.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('comments-heading')
    await expect(thread.locator('.comment-pages').innerText()).resolves.toContain('Page 2 of 2')
    expect(fetched).toEqual([`GET ${sharedServer().baseURL}/api/upload/${id}/comments?page=2&sort=new`])
    await expect(thread.locator('.comment-pages button').allInnerTexts()).resolves.toEqual(['Previous page', 'Next page'])

    // Another order starts at its first page, in one fetch: the oldest comment comes first.
    await thread.locator('[data-testid=comments-sort]').selectOption('old')
    await expect.poll(() => thread.locator('.comment-pages').innerText()).toContain('Page 1 of 2')
    await expect(thread.locator('.comment-list > li').first().getAttribute('id')).resolves.toBe(`comment-${oldest.id}`)
    expect(fetched.slice(1)).toEqual([`GET ${sharedServer().baseURL}/api/upload/${id}/comments?page=1&sort=old`])
    // Posting from the oldest first goes back to the newest first, where the comment shows.
    await thread.locator('[data-testid=comment-body]').fill('Posted from *the oldest first*')
    await thread.locator('[data-testid=comment-submit]').click()
    await thread.locator('[data-testid=comment-html] em', { hasText: 'the oldest first' }).waitFor()
    await expect(thread.locator('.comment-pages').innerText()).resolves.toContain('Page 1 of 2')
    await expect(thread.locator('[data-testid=comments-sort]').inputValue()).resolves.toBe('new')
    await expect(thread.locator('#comments-heading').innerText()).resolves.toBe('Comments (23)')
    expect(complaints).toEqual([])
    await context.close()
  })

  it('show a failure beside what failed, and reload a thread gone stale', async () => {
    const [owner, writer] = await Promise.all([registerUser(), registerUser()])
    const id = await seedLink(owner)
    const post = async (body: string, parentId?: string) => {
      const response = await api(`/api/upload/${id}/comments`, { method: 'POST', token: owner.token, body: { body, ...(parentId ? { parentId } : {}) } })
      expect(response.status).toBe(201)
      return response.body.comment.id as string
    }
    const lone = await post('Soon gone')
    const parent = await post('Soon deleted, with a reply')
    await post('The reply that keeps it', parent)
    const context = await signedInContext(browser, writer)
    const page = await context.newPage()
    const errors = watchErrors(page)
    await goto(page, `/upload/${id}`)
    const thread = page.locator('[data-testid=comments]')
    const activeTestid = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))

    // A reply to a comment deleted meanwhile: the thread is reloaded, the comment has left it, and the
    // reply's text moves to the comment box; the message shows above the list, with the focus.
    await thread.locator('[data-testid=comment-body]').fill('Unsent words')
    await thread.locator(`[data-testid=comment-${lone}] [data-testid=comment-reply]`).click()
    await thread.locator('[data-testid=comment-inline-body]').fill('Too late')
    expect((await api(`/api/comments/${lone}`, { method: 'DELETE', token: owner.token })).status).toBe(200)
    await thread.locator('[data-testid=comment-inline-submit]').click()
    const notice = thread.locator('[data-testid=comments-notice]')
    await expect(notice.innerText()).resolves.toBe('The comment you replied to was deleted, so your reply was not posted. Your text is in the comment box above.')
    await expect(notice.getAttribute('role')).resolves.toBe('alert')
    await expect(activeTestid()).resolves.toBe('comments-notice')
    await expect(thread.locator(`[data-testid=comment-${lone}]`).count()).resolves.toBe(0)
    await expect(thread.locator('[data-testid=comment-inline-writer]').count()).resolves.toBe(0)
    await expect(thread.locator('[data-testid=comment-body]').inputValue()).resolves.toBe('Unsent words\n\nToo late')

    // A vote on a comment deleted meanwhile that keeps its place for its reply: the failure shows under it.
    expect((await api(`/api/comments/${parent}`, { method: 'DELETE', token: owner.token })).status).toBe(200)
    const row = thread.locator(`[data-testid=comment-${parent}]`)
    await row.locator('[data-testid=comment-up]').click()
    await expect(row.locator('[data-testid=comment-error]').innerText()).resolves.toBe('This comment was deleted, so your vote was not counted.')
    await expect(row.locator('[data-testid=comment-error]').getAttribute('role')).resolves.toBe('alert')
    await expect(row.innerText()).resolves.toContain('This comment was deleted.')
    await expect(notice.count()).resolves.toBe(0)

    // A comment whose answer was lost, posted again: one comment, sent both times with one key.
    const keys: string[] = []
    await page.route(`**/api/upload/${id}/comments`, async (route) => {
      if (route.request().method() !== 'POST') return route.fallback()
      keys.push(route.request().headers()['idempotency-key']!)
      if (keys.length > 1) return route.fallback()
      await route.fetch()
      await route.abort('connectionreset')
    })
    await thread.locator('[data-testid=comment-body]').fill('Posted once, answered twice')
    await thread.locator('[data-testid=comment-submit]').click()
    await expect.poll(() => thread.locator('[data-testid=comment-error], [data-testid=comments-notice]').first().innerText().catch(() => '')).toContain('Could not reach the server')
    await thread.locator('[data-testid=comment-submit]').click()
    await expect.poll(() => thread.locator('[data-testid=comment-body]').inputValue()).toBe('')
    expect(keys).toHaveLength(2)
    expect(keys[1]).toBe(keys[0])
    const bodies = (await api(`/api/upload/${id}/comments?limit=50`)).body.comments.map((comment: { body: string }) => comment.body)
    expect(bodies.filter((body: string) => body === 'Posted once, answered twice')).toHaveLength(1)
    expect(errors).toEqual([])
    await context.close()
  })

  it('keep an account\'s unsent text from another account on the browser, and forget it as it signs out', async () => {
    const [owner, alice, bob] = await Promise.all([registerUser(), registerUser(), registerUser()])
    const id = await seedLink(owner)
    const context = await signedInContext(browser, alice)
    const page = await context.newPage()
    const signInAs = async (user: TestUser) => {
      await context.clearCookies()
      await context.addCookies([{ name: 'auth-token', value: user.token, url: sharedServer().baseURL, httpOnly: true, sameSite: 'Lax' }])
      await goto(page, `/upload/${id}`)
    }
    await goto(page, `/upload/${id}`)
    const comment = page.locator('[data-testid=comments] [data-testid=comment-body]')
    await comment.fill('Alice, unsent')
    await page.waitForFunction(key => localStorage.getItem(key)?.includes('Alice, unsent'), `comment-drafts:${id}`)

    // Alice's session gone without signing out, Bob signed in on the same browser: nothing of hers.
    await signInAs(bob)
    await page.waitForLoadState('networkidle')
    await page.evaluate(() => new Promise(requestAnimationFrame))
    await expect(comment.inputValue()).resolves.toBe('')
    // Back to Alice: her text is there. She signs out from the header: forgotten on this browser.
    await signInAs(alice)
    await expect.poll(() => comment.inputValue()).toBe('Alice, unsent')
    await page.click('[data-testid=header-user]')
    await page.click('[data-testid=header-sign-out]')
    await page.waitForURL(url => url.pathname === '/')
    await expect(page.evaluate(key => localStorage.getItem(key), `comment-drafts:${id}`)).resolves.toBeNull()
    await context.close()
  })

  it('keep an unsent comment when a reply opens, and unsent texts across a reload, until posted or cancelled', async () => {
    const [owner, writer] = await Promise.all([registerUser(), registerUser()])
    const id = await seedLink(owner)
    const first = await api(`/api/upload/${id}/comments`, { method: 'POST', token: owner.token, body: { body: 'First!' } })
    expect(first.status).toBe(201)
    const context = await signedInContext(browser, writer)
    const page = await context.newPage()
    const errors = watchErrors(page)
    await goto(page, `/upload/${id}`)
    const thread = page.locator('[data-testid=comments]')
    const row = thread.locator(`[data-testid=comment-${first.body.comment.id}]`)
    const comment = thread.locator('[data-testid=comment-body]')
    const reply = thread.locator('[data-testid=comment-inline-body]')

    // A reply opened in the middle of a comment, then cancelled: the comment is as it was, the reply gone.
    await comment.fill('A long thought')
    await row.locator('[data-testid=comment-reply]').click()
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('comment-inline-body')
    await reply.fill('A reply, half written')
    // The comment's writer stays where it was while the reply is open.
    await expect(comment.isVisible()).resolves.toBe(true)
    await expect(comment.inputValue()).resolves.toBe('A long thought')
    await expect(thread.locator('[data-testid=comment-submit]').isVisible()).resolves.toBe(true)
    await thread.locator('[data-testid=comment-inline-cancel]').click()
    await expect(comment.inputValue()).resolves.toBe('A long thought')
    // Cancelled, the focus goes back to the Reply button that opened the writer.
    await expect.poll(() => page.evaluate(() => `${document.activeElement?.getAttribute('data-testid')} in ${document.activeElement?.closest('li')?.id}`)).toBe(`comment-reply in comment-${first.body.comment.id}`)
    await row.locator('[data-testid=comment-reply]').click()
    await expect(reply.inputValue()).resolves.toBe('')

    // Both unsent texts come back after a reload.
    await reply.fill('A reply to keep')
    await page.reload()
    await hydrated(page)
    await expect.poll(() => comment.inputValue()).toBe('A long thought')
    await row.locator('[data-testid=comment-reply]').click()
    await expect(reply.inputValue()).resolves.toBe('A reply to keep')

    // Posted, each is forgotten; the comment's writer comes back with its text after the reply is sent.
    await thread.locator('[data-testid=comment-inline-submit]').click()
    await thread.getByText('A reply to keep').waitFor()
    await expect(comment.inputValue()).resolves.toBe('A long thought')
    await thread.locator('[data-testid=comment-submit]').click()
    await thread.locator('[data-testid=comment-html]', { hasText: 'A long thought' }).waitFor()
    await expect(comment.inputValue()).resolves.toBe('')
    await page.reload()
    await hydrated(page)
    await expect(comment.inputValue()).resolves.toBe('')
    await expect(page.evaluate(uploadId => localStorage.getItem(`comment-drafts:${uploadId}`), id)).resolves.toBe(null)

    // Near the limit a counter shows the length as the server counts it (code points): an emoji is one.
    const count = thread.locator('[data-testid=comment-count]')
    const tooLong = thread.locator('[data-testid=comment-too-long]')
    const postButton = thread.locator('[data-testid=comment-submit]')
    await comment.fill('x'.repeat(1799))
    await expect(count.count()).resolves.toBe(0)
    await comment.fill('😀'.repeat(1800))
    await expect(count.innerText()).resolves.toBe('1800/2000')
    await expect(comment.getAttribute('aria-describedby')).resolves.toBe('comment-count-new')
    // A longer paste is kept whole, and says why it cannot be posted.
    await comment.fill('y'.repeat(2100))
    await expect(comment.inputValue()).resolves.toBe('y'.repeat(2100))
    await expect(count.innerText()).resolves.toBe('2100/2000')
    await expect(tooLong.innerText()).resolves.toBe('Comment must be at most 2000 characters: shorten it to post.')
    await expect(tooLong.getAttribute('role')).resolves.toBe('alert')
    await expect(postButton.isDisabled()).resolves.toBe(true)
    // 2000 emoji are 2000 characters to the counter and to the server.
    await comment.fill('😀'.repeat(2000))
    await expect(count.innerText()).resolves.toBe('2000/2000')
    await expect(tooLong.count()).resolves.toBe(0)
    await postButton.click()
    await expect.poll(async () => (await api(`/api/upload/${id}/comments`)).body.comments[0].body).toBe('😀'.repeat(2000))
    expect(errors).toEqual([])
    await context.close()
  })
})
