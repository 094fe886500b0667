import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { api, registerUser, type TestUser } from '../support/api'
import { launchBrowser, newContext } from '../support/browser'
import { seedUpload } from '../support/seed'
import { startServer, type RunningServer } from '../support/server'
import { uploadForm } from '../support/images'
import { duelJudged, duelResultPassed, hydrated, noisePng, watchErrors } from './helpers'

// Own server: vote mode walks through every public upload, so only these three may exist
// (the last case, on content ratings, adds pictures of its own).
let server: RunningServer
let browser: Browser
let owner: TestUser
/** Newest first. */
const ids: string[] = []
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString()

beforeAll(async () => {
  ;[server, browser] = await Promise.all([startServer(), launchBrowser()])
  owner = await registerUser({}, server.url)
  const seeds = [{ up: 0, tags: ['vl-cats'] }, { up: 2, tags: ['vl-dogs'] }, { up: 5, tags: ['vl-cats', 'vl-birds'] }]
  for (const [i, seed] of seeds.entries()) {
    ids.push(await seedUpload(owner, { uploadType: 'link', externalUrl: `https://example.com/voting-loop-${i}`, description: `Loop upload ${i}`, upvotes: seed.up, tags: seed.tags, createdAt: minutesAgo(10 + i) }, server))
  }
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

async function signedIn(user: TestUser): Promise<BrowserContext> {
  const context = await newContext(browser, server.url)
  await context.addCookies([{ name: 'auth-token', value: user.token, url: server.url, httpOnly: true, sameSite: 'Lax' }])
  return context
}

async function open(page: Page, path: string) {
  await page.goto(path)
  await hydrated(page)
}

const showing = (page: Page, id: string) => page.waitForSelector(`[data-testid=vote-mode-upload][data-upload-id="${id}"]`)
const voteOf = async (user: TestUser, id: string) => (await api(`/api/vote?uploadId=${id}`, { token: user.token, baseURL: server.url })).body.vote
const cardIds = (page: Page) => page.$$eval('.feed [data-testid=upload-card]', cards => cards.map(card => card.getAttribute('data-upload-id')))
const cardGone = (page: Page, id: string) => page.waitForFunction(uploadId => !document.querySelector(`.feed [data-upload-id="${uploadId}"]`), id)

/** A new account, signed in, with a page of its own opened at `path`. */
async function newAccountAt(path: string) {
  const user = await registerUser({}, server.url)
  const context = await signedIn(user)
  const page = await context.newPage()
  await open(page, path)
  return { user, context, page }
}

describe('vote mode', () => {
  it('votes with F and D through every upload to the end, and undoes the last vote', async () => {
    const { user: voter, context, page } = await newAccountAt('/')
    await page.click('nav[aria-label=Main] >> text=Vote')
    await page.waitForURL('**/vote')
    await showing(page, ids[0]!)
    await page.keyboard.press('f')
    // The crowd's result for the upload just judged, a moment, then the next.
    await page.waitForSelector(`[data-testid=vote-mode-upload][data-upload-id="${ids[0]}"] [data-testid=vote-mode-result]`)
    expect(await page.innerText('[data-testid=vote-mode-result] [data-testid=rating]')).toBe('10.0/10')
    expect(await page.innerText('[data-testid=vote-mode-result] [data-testid=vote-count]')).toBe('1 vote')
    await showing(page, ids[1]!)
    expect(await page.$('[data-testid=vote-mode-result]')).toBeNull()
    await page.keyboard.press('d')
    await page.waitForSelector('[data-testid=vote-mode-result]')
    expect(await page.innerText('[data-testid=vote-mode-result] [data-testid=vote-count]')).toBe('3 votes')
    // Enter (or the Next button) moves on at once.
    await page.keyboard.press('Enter')
    await showing(page, ids[2]!)
    await page.keyboard.press('f')
    await page.waitForSelector('[data-testid=vote-mode-done]')
    expect(await Promise.all(ids.map(id => voteOf(voter, id)))).toEqual(['fucks', 'does_not_fuck', 'fucks'])

    // Undo brings the last upload back, unvoted; the button votes as the key does.
    await page.keyboard.press('u')
    await showing(page, ids[2]!)
    expect(await voteOf(voter, ids[2]!)).toBeNull()
    await page.click('[data-testid=vote-mode-does-not-fuck]')
    await page.waitForSelector('[data-testid=vote-mode-done]')
    expect(await voteOf(voter, ids[2]!)).toBe('does_not_fuck')
    await context.close()
  })

  it('skips an upload without voting, and keeps it away for the rest of the session', async () => {
    const { user: voter, context, page } = await newAccountAt('/vote')
    await showing(page, ids[0]!)
    await page.keyboard.press('s')
    await showing(page, ids[1]!)
    expect(await page.innerText('[data-testid=vote-mode-status]')).toBe('Skipped. No vote was cast.')
    // A reload in the same tab does not bring it back; the button skips as the key does.
    await open(page, '/vote')
    await showing(page, ids[1]!)
    await page.click('[data-testid=vote-mode-skip]')
    await showing(page, ids[2]!)
    // The keyboard stays on the control pressed, the new card's, then on Next in a result.
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'vote-mode-skip')
    await page.click('[data-testid=vote-mode-fucks]')
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'vote-mode-next')
    await page.waitForSelector('[data-testid=vote-mode-done]')
    expect(await Promise.all(ids.map(id => voteOf(voter, id)))).toEqual([null, null, 'fucks'])
    await context.close()
  })

  it('takes an anonymous visitor through the uploads too, a key press asking for a second one as on the upload page', async () => {
    const context = await newContext(browser, server.url)
    const page = await context.newPage()
    const sent: string[] = []
    page.on('request', request => request.url().includes('/api/vote/anonymous') && sent.push(request.url()))
    const statusIs = (text: string) => page.waitForFunction(expected =>
      document.querySelector('[data-testid=vote-mode-status]')?.textContent?.trim() === expected, text)
    await open(page, '/vote')
    await showing(page, ids[0]!)
    await page.keyboard.press('d')
    await statusIs('Press D again to vote “Does not fuck”: an anonymous vote cannot be changed. Esc cancels.')
    await page.keyboard.press('Escape')
    await statusIs('No vote was cast.')
    expect(sent).toEqual([])
    // Skipped: the next upload this visitor has not voted on comes from the public list past it.
    await page.keyboard.press('s')
    for (const id of ids.slice(1)) {
      await showing(page, id)
      await page.keyboard.press('d')
      await page.keyboard.press('d')
      await page.waitForSelector('[data-testid=vote-mode-result]')
    }
    await page.waitForSelector('[data-testid=vote-mode-done]')
    expect(sent).toHaveLength(2)
    const stats = await Promise.all(ids.map(async id => (await api(`/api/upload/${id}`, { baseURL: server.url })).body.stats.downvotes))
    expect(stats).toEqual([0, 2, 2])
    // Still skipped after a reload.
    await open(page, '/vote')
    await page.waitForSelector('[data-testid=vote-mode-done]')
    await context.close()
  })
})

describe('sort tabs', () => {
  it('switch the ranking and its period, kept in the URL', async () => {
    const context = await newContext(browser, server.url)
    const page = await context.newPage()
    await open(page, '/')
    expect(await cardIds(page)).toEqual(ids)
    expect(await page.$('[data-testid=period]')).toBeNull()
    await page.click('[data-testid=sort-top]')
    await page.waitForURL(url => url.searchParams.get('sort') === 'top')
    await page.waitForFunction(first => document.querySelector('.feed [data-testid=upload-card]')?.getAttribute('data-upload-id') === first, ids[2])
    expect(await cardIds(page)).toEqual([ids[2], ids[1], ids[0]])
    expect(await page.getAttribute('[data-testid=sort-top]', 'aria-current')).toBe('page')
    await page.selectOption('[data-testid=period]', 'week')
    await page.waitForURL(url => url.searchParams.get('period') === 'week' && url.searchParams.get('sort') === 'top')
    await page.click('[data-testid=sort-hot]')
    await page.waitForURL(url => url.searchParams.get('sort') === 'hot' && !url.searchParams.has('period'))
    expect(await page.$('[data-testid=period]')).toBeNull()
    // A reload keeps the ranking.
    await open(page, '/?sort=best&period=month')
    expect(await page.getAttribute('[data-testid=sort-best]', 'aria-current')).toBe('page')
    expect(await page.inputValue('[data-testid=period]')).toBe('month')
    await context.close()
  })

  it('choose how many uploads a page shows, kept in the URL with the ranking', async () => {
    const context = await newContext(browser, server.url)
    const page = await context.newPage()
    await open(page, '/?sort=top&page=2')
    expect(await page.inputValue('[data-testid=page-size]')).toBe('12')
    await page.selectOption('[data-testid=page-size]', '48')
    // Page 1 again, the ranking kept.
    await page.waitForURL(url => url.searchParams.get('limit') === '48' && url.searchParams.get('sort') === 'top' && !url.searchParams.has('page'))
    await page.waitForFunction(first => document.querySelector('.feed [data-testid=upload-card]')?.getAttribute('data-upload-id') === first, ids[2])
    expect(await page.getAttribute('[data-testid=sort-new]', 'href')).toBe('/?limit=48')
    await page.click('[data-testid=sort-new]')
    await page.waitForURL(url => url.searchParams.get('limit') === '48' && !url.searchParams.has('sort'))
    expect(await page.inputValue('[data-testid=page-size]')).toBe('48')
    await page.selectOption('[data-testid=page-size]', '12')
    await page.waitForURL(url => url.search === '')
    await context.close()
  })
})

describe('hiding a tag', () => {
  it('from a chip leaves its uploads out of the lists at once, and settings show it', async () => {
    const { user, context, page } = await newAccountAt('/')
    const hideButton = `.feed [data-upload-id="${ids[1]}"] [data-testid=hide-tag]`
    expect(await page.getAttribute(hideButton, 'aria-label')).toBe('Hide tag #vl-dogs')
    await page.click(hideButton)
    await cardGone(page, ids[1]!)
    expect(await cardIds(page)).toEqual([ids[0], ids[2]])
    expect((await api('/api/profile/filters', { token: user.token, baseURL: server.url })).body).toEqual({ hiddenTags: ['vl-dogs'], blindVoting: false })
    // A toast in a live region says so, and Undo brings the uploads back.
    expect(await page.getAttribute('[data-testid=toast]', 'aria-live')).toBe('polite')
    expect(await page.innerText('[data-testid=toast-text]')).toBe('Uploads tagged #vl-dogs are now hidden from your lists.')
    await page.click('[data-testid=toast-action]:has-text("Undo")')
    await page.waitForFunction(id => Boolean(document.querySelector(`.feed [data-upload-id="${id}"]`)), ids[1])
    expect(await page.innerText('[data-testid=toast-text]')).toBe('Uploads tagged #vl-dogs are shown again.')
    expect((await api('/api/profile/filters', { token: user.token, baseURL: server.url })).body).toEqual({ hiddenTags: [], blindVoting: false })
    await page.click(hideButton)
    await cardGone(page, ids[1]!)
    await open(page, '/settings')
    expect(await page.textContent('[data-testid=hidden-tags]')).toContain('#vl-dogs')
    // A failure says whether the save was sent and answered, and what the section showed.
    const saved = page.waitForResponse(response => response.url().endsWith('/api/profile/filters') && response.request().method() === 'PUT', { timeout: 10_000 })
    await page.click('text=Show again')
    expect((await saved).status()).toBe(200)
    await page.waitForSelector('[data-testid=no-hidden-tags]', { timeout: 10_000 }).catch(async (error: Error) => {
      throw new Error(`${error.message}\nThe section showed: ${await page.textContent('#filters')}`)
    })
    expect((await api('/api/profile/filters', { token: user.token, baseURL: server.url })).body).toEqual({ hiddenTags: [], blindVoting: false })

    // A name the tag rule refuses is said under the field, naming it; nothing is sent. Typing clears it.
    await page.fill('#hide-tag', 'x')
    await page.press('#hide-tag', 'Enter')
    expect(await page.innerText('[data-testid=hide-tag-error]')).toBe('Tag names must be 2 to 50 characters of letters, digits, spaces and hyphens: “x”')
    expect(await page.getAttribute('#hide-tag', 'aria-invalid')).toBe('true')
    await page.fill('#hide-tag', '#VL Cats')
    expect(await page.locator('[data-testid=hide-tag-error]').count()).toBe(0)
    await page.press('#hide-tag', 'Enter')
    await page.waitForFunction(() => document.querySelector('[data-testid=hidden-tags]')?.textContent?.includes('#vl-cats'))
    expect((await api('/api/profile/filters', { token: user.token, baseURL: server.url })).body).toEqual({ hiddenTags: ['vl-cats'], blindVoting: false })
    await context.close()
  })
})

describe('hiding two tags at once', () => {
  it('keeps both: the second waits for the first to be saved', async () => {
    const { user, context, page } = await newAccountAt('/')
    // Both clicks in one task: the second begins while the first one's save is on its way.
    await page.evaluate((cards) => {
      for (const [id, tag] of cards) document.querySelector<HTMLElement>(`.feed [data-upload-id="${id}"] [aria-label="Hide tag #${tag}"]`)!.click()
    }, [[ids[1], 'vl-dogs'], [ids[2], 'vl-birds']])
    await cardGone(page, ids[2]!)
    await cardGone(page, ids[1]!)
    expect(await cardIds(page)).toEqual([ids[0]])
    expect((await api('/api/profile/filters', { token: user.token, baseURL: server.url })).body).toEqual({ hiddenTags: ['vl-birds', 'vl-dogs'], blindVoting: false })
    await context.close()
  })
})

describe('blind voting', () => {
  it('hides counts on cards until the viewer has voted, and can be switched off', async () => {
    const { user, context, page } = await newAccountAt('/settings')
    await page.check('[data-testid=blind-voting]')
    await page.waitForSelector('text=Blind voting is on')
    expect((await api('/api/profile/filters', { token: user.token, baseURL: server.url })).body.blindVoting).toBe(true)
    await open(page, '/')
    await page.waitForSelector('.feed [data-testid=blind-rating]')
    expect(await page.$$eval('.feed [data-testid=upload-card]', cards => cards.map(card => Boolean(card.querySelector('[data-testid=blind-rating]'))))).toEqual([true, true, true])

    await open(page, `/upload/${ids[0]}`)
    await page.click('#vote-fucks')
    await page.waitForSelector('#vote-fucks[aria-pressed="true"]')
    await open(page, '/')
    await page.waitForSelector('.feed [data-testid=blind-rating]')
    expect(await page.$$eval('.feed [data-testid=upload-card]', cards => cards.map(card => Boolean(card.querySelector('[data-testid=blind-rating]'))))).toEqual([false, true, true])

    // The setting lives on the account: another browser signed in as the same user hides counts
    // too, and shows them at once for the upload the account voted on in the first browser.
    const elsewhere = await signedIn(user)
    const other = await elsewhere.newPage()
    const asked: string[] = []
    other.on('request', request => request.url().includes('/api/vote/mine') && asked.push(request.url()))
    await open(other, '/')
    await other.waitForSelector('.feed [data-testid=blind-rating]')
    expect(await other.isChecked('[data-testid=blind-toggle]')).toBe(true)
    await expect.poll(() => other.$$eval('.feed [data-testid=upload-card]', cards => cards.map(card => Boolean(card.querySelector('[data-testid=blind-rating]'))))).toEqual([false, true, true])
    expect(await other.locator('.feed [data-testid=upload-card]').first().locator('[data-testid=rating]').count()).toBe(1)
    // One batch for the page's cards at most, not a request per card (a signed-in render
    // asks on the server already, so the browser usually asks nothing).
    expect(asked.length).toBeLessThanOrEqual(1)
    await elsewhere.close()

    await open(page, '/settings')
    await page.uncheck('[data-testid=blind-voting]')
    await page.waitForSelector('text=Blind voting is off')
    await open(page, '/')
    expect(await page.$$('[data-testid=blind-rating]')).toHaveLength(0)
    expect(await page.$$('.feed [data-testid=rating]')).toHaveLength(3)
    await context.close()
  })

  it('lets a visitor switch it on beside the list, kept in this browser', async () => {
    const context = await newContext(browser, server.url)
    const page = await context.newPage()
    await open(page, '/')
    await page.check('[data-testid=blind-toggle]')
    await page.waitForSelector('.feed [data-testid=blind-rating]')
    expect(await page.$$('.feed [data-testid=blind-rating]')).toHaveLength(3)
    await open(page, '/')
    await page.waitForSelector('.feed [data-testid=blind-rating]')
    expect(await page.isChecked('[data-testid=blind-toggle]')).toBe(true)
    await page.uncheck('[data-testid=blind-toggle]')
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=blind-rating]').length === 0)
    await context.close()
  })
})

// Last: it adds four pictures (the cases above count on the three links alone).
describe('content ratings in vote mode and This or That', () => {
  const blurOf = (page: Page, selector: string) => page.locator(selector).evaluate(image => getComputedStyle(image).filter)

  it('blurs an explicit picture for a visitor by default, Show reveals it, a blurred one can be voted on or chosen, and a hidden rating never comes', async () => {
    const picture = async (description: string, rating?: string) => {
      const created = await api('/api/upload', { baseURL: server.url, method: 'POST', token: owner.token, body: uploadForm(
        { upload_type: 'image', description, ...(rating ? { rating } : {}) },
        { data: await noisePng(), name: 'picture.png', type: 'image/png' },
      ) })
      expect(created.status).toBe(201)
      return created.body.upload.id as string
    }
    const safe = [await picture('Safe picture one'), await picture('Safe picture two')]
    const explicit = [await picture('Explicit picture one', 'explicit'), await picture('Explicit picture two', 'explicit')]
    const context = await newContext(browser, server.url)
    const page = await context.newPage()
    const errors = watchErrors(page)
    const keep = (choice: object | null) => page.evaluate(value => value
      ? localStorage.setItem('dif:rating-preferences', JSON.stringify(value))
      : localStorage.removeItem('dif:rating-preferences'), choice)

    // This browser hides explicit uploads: vote mode offers the newest safe picture, This or That pairs the two safe ones only.
    await open(page, '/')
    await keep({ explicit: 'hide', suggestive: 'show' })
    await open(page, '/vote')
    await showing(page, safe[1]!)
    expect(await page.locator('[data-testid=rating-show]').count()).toBe(0)
    await open(page, '/duel')
    await page.locator('[data-testid=duel-pair]').waitFor()
    const pair = await page.locator('[data-testid=duel-pair] .side').evaluateAll(sides => sides.map(side => side.getAttribute('data-upload-id')))
    expect(pair.sort()).toEqual([...safe].sort())
    const [skipped] = await Promise.all([duelJudged(page), page.keyboard.press('s')])
    expect(skipped.status()).toBe(200)
    await page.locator('[data-testid=duel-done]').waitFor()

    // The default choice (blur): the newest picture, explicit, comes blurred under a Show button, and a click votes on it as it is.
    await keep(null)
    await open(page, '/vote')
    await showing(page, explicit[1]!)
    expect(await page.locator('[data-testid=vote-mode-media]').getAttribute('class')).toContain('rating-blurred')
    expect(await blurOf(page, '[data-testid=vote-mode-media] img')).toBe('blur(28px)')
    expect(await page.getByRole('button', { name: 'Show explicit upload: Explicit picture two' }).count()).toBe(1)
    const [voted] = await Promise.all([
      page.waitForResponse(response => response.url().endsWith('/api/vote/anonymous')),
      page.click('[data-testid=vote-mode-fucks]'),
    ])
    expect(voted.status()).toBe(200)
    await page.click('[data-testid=vote-mode-next]')
    // The next one, blurred too: its Show button, reached from the keyboard, reveals it.
    await showing(page, explicit[0]!)
    expect(await blurOf(page, '[data-testid=vote-mode-media] img')).toBe('blur(28px)')
    await page.getByRole('button', { name: 'Show explicit upload: Explicit picture one' }).focus()
    await page.keyboard.press('Enter')
    await page.waitForSelector('[data-testid=vote-mode-media]:not(.rating-blurred)')
    expect(await blurOf(page, '[data-testid=vote-mode-media] img')).toBe('none')
    expect(await page.locator('[data-testid=rating-show]').count()).toBe(0)

    // This or That: every pair left has an explicit picture, blurred; ← or → chooses it as it is.
    await open(page, '/duel')
    await page.locator('[data-testid=duel-pair]').waitFor()
    const blurredSide = async () => (await page.locator('[data-testid=duel-left]').getAttribute('data-rating')) === 'explicit' ? 'left' : 'right'
    const side = await blurredSide()
    expect(await page.locator(`[data-testid=duel-${side}]`).getAttribute('class')).toContain('rating-blurred')
    expect(await blurOf(page, `[data-testid=duel-${side}] img`)).toBe('blur(28px)')
    const [chosen] = await Promise.all([duelJudged(page), page.keyboard.press(side === 'left' ? 'ArrowLeft' : 'ArrowRight')])
    expect(chosen.status()).toBe(200)
    expect(chosen.request().postDataJSON()).toMatchObject({ winner: side })
    await duelResultPassed(page)
    await page.locator('[data-testid=duel-pair][aria-busy=false]').waitFor()
    const next = await blurredSide()
    const description = await page.locator(`[data-testid=duel-${next}] img`).getAttribute('alt')
    await page.getByRole('button', { name: `Show explicit upload: ${description}` }).focus()
    await page.keyboard.press('Enter')
    await page.waitForSelector(`[data-testid=duel-${next}]:not(.rating-blurred)`)
    expect(await blurOf(page, `[data-testid=duel-${next}] img`)).toBe('none')
    expect(errors).toEqual([])
    await context.close()
  })
})
