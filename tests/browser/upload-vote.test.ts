import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { launchBrowser, newContext } from '../support/browser'
import { api } from '../support/api'
import { goto, noisePng, sessionToken, tagSuggestionsSettled, watchErrors } from './helpers'
import { sharedServer } from '../support/shared-server'

describe('register, upload an image, vote and change the vote', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await launchBrowser()
  })
  afterAll(() => browser?.close())

  it('goes from registration to a changed vote, with the API agreeing at each step', async () => {
    const context = await newContext(browser, sharedServer().baseURL)
    const page = await context.newPage()
    const errors = watchErrors(page)
    const suffix = randomUUID().slice(0, 8)
    const username = `ui_${suffix}`

    // Register through the form.
    await goto(page, '/register')
    await page.fill('#email', `${username}@e2e.test`)
    await page.fill('#username', username)
    await page.fill('#password', 'correct horse battery')
    await page.click('button[type=submit]')
    await page.waitForURL(url => url.pathname === '/')
    await expect(page.innerText('[data-testid=header-user]')).resolves.toContain(username)
    const token = await sessionToken(context)
    const profile = await api('/api/profile', { token })
    expect(profile.status).toBe(200)
    expect(profile.body.user.username).toBe(username)

    // Upload an image file with a tag.
    await goto(page, '/upload/new')
    await page.setInputFiles('#file', { name: 'noise.png', mimeType: 'image/png', buffer: await noisePng() })
    await expect(page.locator('img.file-preview').count()).resolves.toBe(1)
    const description = `A noisy square ${suffix}`
    await page.fill('#description', description)
    await expect(page.innerText('#description-count')).resolves.toContain(`${description.length}/500`)
    await page.fill('#tags', 'noise')
    await page.keyboard.press('Enter')
    await tagSuggestionsSettled(page, 'tags')
    await page.click('button[type=submit]')
    await page.waitForURL(/\/upload\/[0-9a-f-]{36}$/)
    const id = new URL(page.url()).pathname.split('/').pop()!
    await expect(page.innerText('[data-testid=upload-description]')).resolves.toBe(description)
    // The page shows the display-size picture, loaded at once, with the original one click away.
    await expect(page.locator('[data-testid=upload-image]').getAttribute('src')).resolves.toBe(`/api/image/${id}?size=display`)
    await expect(page.locator('[data-testid=upload-image]').getAttribute('loading')).resolves.toBeNull()
    await expect(page.locator('[data-testid=original-link]').getAttribute('href')).resolves.toBe(`/api/image/${id}`)
    // Its two links under the picture read as two, with space between them.
    const [original, similar] = await Promise.all(['original-link', 'find-similar'].map(testId => page.locator(`[data-testid=${testId}]`).boundingBox()))
    expect(similar!.x - (original!.x + original!.width)).toBeGreaterThanOrEqual(8)
    await page.waitForFunction(() => {
      const image = document.querySelector<HTMLImageElement>('[data-testid=upload-image]')
      return image !== null && image.complete && image.naturalWidth > 0
    })

    // Shared links preview: og:image is the absolute thumbnail address.
    await expect(page.locator('meta[property="og:image"]').getAttribute('content')).resolves.toBe(`${sharedServer().baseURL}/api/image/${id}?size=thumb`)

    const created = await api(`/api/upload/${id}`)
    expect(created.status).toBe(200)
    expect(created.body).toMatchObject({ id, description, upload_type: 'image', username, is_private: 0 })
    expect(created.body.tags.map((t: { name: string }) => t.name)).toEqual(['noise'])

    // It appears on the home feed.
    await goto(page, '/')
    await expect(page.locator(`section.feed [data-upload-id="${id}"]`).count()).resolves.toBe(1)
    await expect(page.locator(`[data-upload-id="${id}"] .description`).first().innerText()).resolves.toContain(description)

    // Vote "Fucks": counts and rating change on the page and in the API.
    await goto(page, `/upload/${id}`)
    await expect(page.innerText('[data-testid=rating]')).resolves.toContain('–')
    await page.click('#vote-fucks')
    await page.waitForSelector('#vote-fucks[aria-pressed="true"]')
    await page.waitForFunction(() => document.querySelector('[data-testid=upvotes]')?.textContent?.trim() === '1 fuck')
    await expect(page.innerText('[data-testid=rating]')).resolves.toContain('10.0')
    await expect(page.innerText('[data-testid=vote-count]')).resolves.toBe('1 vote')
    let reported = await api(`/api/upload/${id}`)
    expect(reported.body.stats).toEqual({ voteCount: 1, upvotes: 1, downvotes: 0, averageRating: 10 })
    await expect(api(`/api/vote?uploadId=${id}`, { token }).then(r => r.body)).resolves.toEqual({ vote: 'fucks' })

    // Switch to "Does not fuck".
    await page.click('#vote-does-not-fuck')
    await page.waitForSelector('#vote-does-not-fuck[aria-pressed="true"]')
    await page.waitForFunction(() => document.querySelector('[data-testid=downvotes]')?.textContent?.includes('1 against'))
    await expect(page.innerText('[data-testid=rating]')).resolves.toContain('1.0')
    await expect(page.getAttribute('#vote-fucks', 'aria-pressed')).resolves.toBe('false')
    reported = await api(`/api/upload/${id}`)
    expect(reported.body.stats).toEqual({ voteCount: 1, upvotes: 0, downvotes: 1, averageRating: 1 })
    await expect(api(`/api/vote?uploadId=${id}`, { token }).then(r => r.body)).resolves.toEqual({ vote: 'does_not_fuck' })

    // Pressing the chosen button again takes the vote back.
    await page.click('#vote-does-not-fuck')
    await page.waitForSelector('#vote-does-not-fuck[aria-pressed="false"]')
    await expect(page.innerText('[data-testid=vote-status]')).resolves.toContain('removed')
    reported = await api(`/api/upload/${id}`)
    expect(reported.body.stats).toEqual({ voteCount: 0, upvotes: 0, downvotes: 0, averageRating: null })

    expect(errors).toEqual([])
    await context.close()
  })
})
