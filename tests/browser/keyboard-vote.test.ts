import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { launchBrowser } from '../support/browser'
import { api } from '../support/api'
import { fetchUpload, seedLink, goto, registerUser, signedInContext } from './helpers'

describe('keyboard voting', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await launchBrowser()
  })
  afterAll(() => browser?.close())

  it('votes with F and D, with the focused button visibly outlined', async () => {
    const owner = await registerUser()
    const voter = await registerUser()
    const id = await seedLink(owner, { url: 'https://example.com/keyboard' })
    const context = await signedInContext(browser, voter)
    const page = await context.newPage()
    await goto(page, `/upload/${id}`)

    await page.keyboard.press('f')
    await page.waitForSelector('#vote-fucks[aria-pressed="true"]')
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('vote-fucks')
    expect((await api(`/api/vote?uploadId=${id}`, { token: voter.token })).body).toEqual({ vote: 'fucks' })

    await page.keyboard.press('d')
    await page.waitForSelector('#vote-does-not-fuck[aria-pressed="true"]')
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('vote-does-not-fuck')
    expect((await api(`/api/vote?uploadId=${id}`, { token: voter.token })).body).toEqual({ vote: 'does_not_fuck' })
    await page.waitForFunction(() => document.querySelector('[data-testid=downvotes]')?.textContent?.includes('1 against'))
    expect((await fetchUpload(id)).body.stats).toMatchObject({ upvotes: 0, downvotes: 1 })

    // Focus is visible: a keyboard-focused vote button has an outline.
    await page.keyboard.press('Shift+Tab')
    const outline = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement
      return { id: element.id, style: getComputedStyle(element).outlineStyle, visible: element.matches(':focus-visible') }
    })
    expect(outline).toEqual({ id: 'vote-fucks', style: 'solid', visible: true })
    await context.close()
  })
})
