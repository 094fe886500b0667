import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { launchBrowser, newContext } from '../support/browser'
import { api } from '../support/api'
import { goto, registerUser, seedLink, signedInContext, watchErrors } from './helpers'
import { sharedServer } from '../support/shared-server'

describe('the favourite heart', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await launchBrowser()
  })
  afterAll(() => browser?.close())

  it('toggles on the upload page and on cards, by click and by keyboard, and the profile tab lists it', async () => {
    const [owner, fan] = await Promise.all([registerUser(), registerUser()])
    const description = `Heart me ${randomUUID().slice(0, 8)}`
    const id = await seedLink(owner, { description })
    const context = await signedInContext(browser, fan)
    const page = await context.newPage()
    const errors = watchErrors(page)

    // The upload page: a click presses the heart and moves the count; a reload keeps both.
    await goto(page, `/upload/${id}`)
    const heart = page.locator('[data-testid=upload-detail] [data-testid=favourite]')
    await expect(heart.getAttribute('aria-pressed')).resolves.toBe('false')
    await expect(heart.locator('[data-testid=favourite-count]').innerText()).resolves.toBe('0')
    await heart.click()
    await page.waitForFunction(() => document.querySelector('[data-testid=upload-detail] [data-testid=favourite]')?.getAttribute('aria-pressed') === 'true')
    await expect(heart.locator('[data-testid=favourite-count]').innerText()).resolves.toBe('1')
    await expect.poll(async () => (await api(`/api/upload/${id}`)).body.favourites).toBe(1)
    await page.reload()
    await expect(heart.getAttribute('aria-pressed')).resolves.toBe('true')
    await expect(heart.locator('[data-testid=favourite-count]').innerText()).resolves.toBe('1')

    // The fan's profile, Favourites tab: the upload is listed, its heart pressed.
    await goto(page, `/user/${fan.username}?tab=favourites`)
    const listed = page.locator(`[data-upload-id="${id}"]`)
    await expect(listed.locator('.description').innerText()).resolves.toBe(description)
    await expect(listed.locator('[data-testid=favourite]').getAttribute('aria-pressed')).resolves.toBe('true')

    // The keyboard, on the owner's uploads, where the card stays when its heart is taken back
    // (the Favourites tab may leave it out once it refreshes): Space takes it back, Enter gives it again.
    await goto(page, `/user/${owner.username}`)
    const card = page.locator(`[data-upload-id="${id}"]`)
    const cardHeart = card.locator('[data-testid=favourite]')
    await expect(cardHeart.getAttribute('aria-pressed')).resolves.toBe('true')
    await cardHeart.focus()
    // Each press waits until its answer is in (no aria-busy): a press made while the answer
    // before it is on its way is folded into it (useFavourites), and the step below counts requests.
    const settled = (pressed: 'true' | 'false') => page.waitForFunction(([uploadId, wanted]) => {
      const heart = document.querySelector(`[data-upload-id="${uploadId}"] [data-testid=favourite]`)
      return heart !== null && heart.getAttribute('aria-pressed') === wanted && !heart.hasAttribute('aria-busy')
    }, [id, pressed])
    await page.keyboard.press('Space')
    await settled('false')
    await expect(cardHeart.locator('[data-testid=favourite-count]').innerText()).resolves.toBe('0')
    await expect.poll(async () => (await api(`/api/upload/${id}`)).body.favourites).toBe(0)
    await page.keyboard.press('Enter')
    await settled('true')
    await expect.poll(async () => (await api(`/api/upload/${id}`)).body.favourites).toBe(1)
    // Two presses back to back: the second waits for the first's answer instead of being lost.
    const putAgain = page.waitForResponse(response => response.url().endsWith(`/api/upload/${id}/favourite`) && response.request().method() === 'PUT')
    await page.keyboard.press('Space')
    await page.keyboard.press('Enter')
    expect((await putAgain).status()).toBe(200)
    await expect.poll(async () => (await api(`/api/upload/${id}`)).body.favourites).toBe(1)
    await settled('true')
    await expect(cardHeart.locator('[data-testid=favourite-count]').innerText()).resolves.toBe('1')

    // The header's Favourites page (under the account's name) lists it too.
    await page.click('[data-testid=header-user]')
    await page.click('[data-testid=header-favourites]')
    await page.waitForURL(url => url.pathname === '/favourites')
    await expect(page.locator(`[data-upload-id="${id}"]`).count()).resolves.toBe(1)
    await expect(page.innerText('[data-testid=favourites-total]')).resolves.toBe('1 favourite in all.')
    await expect(page.innerText('.favourites-header p')).resolves.toBe('Uploads you marked with the heart, newest first. 1 favourite in all. Others see them on your profile. Change')
    // Taken back there, the card stays for an undo, and the total says what is left.
    await page.locator(`[data-upload-id="${id}"] [data-testid=favourite]`).click()
    await settled('false')
    await expect(page.innerText('[data-testid=favourites-total]')).resolves.toBe('0 favourites in all.')
    expect(errors).toEqual([])
    await context.close()
  })

  it('puts the public-favourites box back as the account has it when its save fails', async () => {
    const user = await registerUser()
    const context = await signedInContext(browser, user)
    const page = await context.newPage()
    await goto(page, '/settings')
    const box = page.locator('[data-testid=public-favourites]')
    await expect(box.isChecked()).resolves.toBe(true)
    await context.setOffline(true)
    await box.click()
    await page.locator('#filters [role=alert]').waitFor()
    await expect.poll(() => box.isChecked()).toBe(true)
    await context.setOffline(false)
    expect((await api('/api/profile', { token: user.token })).body.user.publicFavourites).toBe(true)
    await context.close()
  })

  it('sends a visitor to sign in, and says so when a user keeps favourites private', async () => {
    const owner = await registerUser()
    const id = await seedLink(owner)
    expect((await api('/api/profile/preferences', { method: 'PUT', token: owner.token, body: { publicFavourites: false } })).status).toBe(200)
    const context = await newContext(browser, sharedServer().baseURL)
    const page = await context.newPage()
    await goto(page, `/upload/${id}`)
    await page.click('[data-testid=upload-detail] [data-testid=favourite]')
    await page.waitForURL(url => url.pathname === '/login' && url.searchParams.get('redirect') === `/upload/${id}`)
    await goto(page, `/user/${owner.username}?tab=favourites`)
    await expect(page.innerText('[data-testid=favourites-private]')).resolves.toContain(`${owner.username} keeps their favourites private.`)
    await context.close()
  })
})
