import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { launchBrowser } from '../support/browser'
import { fetchUpload, goto, registerUser, signedInContext } from './helpers'

const VIDEO = 'dQw4w9WgXcQ'

describe('link uploads', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await launchBrowser()
  })
  afterAll(() => browser?.close())

  it('previews a YouTube link while typing and shows its embed on the upload page', async () => {
    const user = await registerUser()
    const context = await signedInContext(browser, user)
    const page = await context.newPage()
    const warnings: string[] = []
    page.on('console', (message) => {
      if (message.type() === 'warning' || message.type() === 'error') warnings.push(message.text())
    })

    await goto(page, '/upload/new')
    await page.click('label.mode:has-text("Link")')
    await page.fill('#link-url', `https://www.youtube.com/watch?v=${VIDEO}&t=42`)
    const preview = page.locator('[data-testid=link-preview] iframe')
    await preview.waitFor()
    await expect(preview.getAttribute('src')).resolves.toBe(`https://www.youtube-nocookie.com/embed/${VIDEO}`)

    await page.fill('#description', 'A classic video')
    await page.click('button[type=submit]')
    await page.waitForURL(/\/upload\/[0-9a-f-]{36}$/)
    const id = new URL(page.url()).pathname.split('/').pop()!

    const embed = page.locator('[data-testid=upload-detail] .embed[data-provider=youtube] iframe')
    await expect(embed.getAttribute('src')).resolves.toBe(`https://www.youtube-nocookie.com/embed/${VIDEO}`)
    await expect(embed.getAttribute('title')).resolves.toContain('YouTube')
    // Full screen is allowed by `allow` alone: with allowfullscreen too, Chromium warns on every embed.
    await expect(embed.getAttribute('allow')).resolves.toContain('fullscreen')
    expect(warnings.filter(text => /allowfullscreen/i.test(text))).toEqual([])

    const reported = await fetchUpload(id)
    expect(reported.status).toBe(200)
    expect(reported.body).toMatchObject({ id, upload_type: 'link', external_url: `https://www.youtube.com/watch?v=${VIDEO}&t=42`, filename: null })

    // Links have no og:image (there is no stored image), but a title and a description.
    await expect(page.locator('meta[property="og:title"]').getAttribute('content')).resolves.toContain('A classic video')
    await context.close()
  })

  it('shows a link card for a site without an embed', async () => {
    const user = await registerUser()
    const context = await signedInContext(browser, user)
    const page = await context.newPage()
    await goto(page, '/upload/new')
    await page.click('label.mode:has-text("Link")')
    await page.fill('#link-url', 'https://example.org/some/article')
    await page.locator('[data-testid=link-preview] .link-card').waitFor()
    await expect(page.locator('[data-testid=link-preview] iframe').count()).resolves.toBe(0)
    await context.close()
  })
})
