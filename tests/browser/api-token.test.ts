import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { launchBrowser } from '../support/browser'
import { api } from '../support/api'
import { fetchUpload, goto, registerUser, signedInContext } from './helpers'

describe('API tokens in settings', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await launchBrowser()
  })
  afterAll(() => browser?.close())

  it('creates a token that uploads through /api/v1/upload, and revokes it', async () => {
    const user = await registerUser()
    const context = await signedInContext(browser, user)
    const page = await context.newPage()

    await goto(page, '/settings')
    await page.fill('#token-name', 'my script')
    await page.click('button:has-text("Create token")')
    await page.locator('[data-testid=token-value]').waitFor()
    const token = (await page.innerText('[data-testid=token-value]'))!.trim()
    expect(token).toMatch(/^[0-9a-f]{64}$/)
    await expect(page.innerText('[data-testid=token-list]')).resolves.toContain('my script')
    // Done, pressed from the keyboard, takes the shown token away: the keyboard goes on in its section.
    await page.focus('[data-testid=token-created] button:has-text("Done")')
    await page.keyboard.press('Enter')
    await page.locator('[data-testid=token-created]').waitFor({ state: 'detached' })
    await page.waitForFunction(() => document.activeElement?.id === 'tokens', null, { timeout: 2000 })

    const listed = await api('/api/auth/tokens', { token: user.token })
    expect(listed.body.tokens).toHaveLength(1)
    expect(listed.body.tokens[0].name).toBe('my script')

    const form = new FormData()
    form.set('upload_type', 'link')
    form.set('external_url', 'https://example.com/from-a-script')
    form.set('description', 'Uploaded by a script')
    const uploaded = await api('/api/v1/upload', { method: 'POST', body: form, bearer: token })
    expect(uploaded.status).toBe(201)
    expect(uploaded.body.upload).toMatchObject({ userId: user.id, uploadType: 'link', externalUrl: 'https://example.com/from-a-script', isPrivate: false })
    const reported = await fetchUpload(uploaded.body.upload.id)
    expect(reported.body.username).toBe(user.username)

    // Revoke it in the UI: asked first, Cancel keeps it; confirmed, the token stops working.
    await page.click('button[aria-label="Revoke token my script"]')
    await expect(page.innerText('[role=group][aria-label="Confirm revoking token my script"]')).resolves.toContain('Scripts using it stop working.')
    expect((await api('/api/auth/tokens', { token: user.token })).body.tokens).toHaveLength(1)
    await page.click('[role=group][aria-label="Confirm revoking token my script"] button:has-text("Cancel")')
    // Escape answers no as well, the focus back on the button that asked.
    await page.click('button[aria-label="Revoke token my script"]')
    await page.keyboard.press('Escape')
    await expect(page.locator('[role=group][aria-label="Confirm revoking token my script"]').count()).resolves.toBe(0)
    await expect(page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).resolves.toBe('Revoke token my script')
    await page.click('button[aria-label="Revoke token my script"]')
    // Confirmed from the keyboard, the row goes with its buttons: the keyboard stays in the section.
    await page.focus('[data-testid=confirm-revoke]')
    await page.keyboard.press('Enter')
    await page.waitForFunction(() => !document.querySelector('[data-testid=token-list]'))
    await page.waitForFunction(() => document.activeElement?.id === 'tokens', null, { timeout: 2000 })
    expect((await api('/api/auth/tokens', { token: user.token })).body.tokens).toEqual([])
    const again = new FormData()
    again.set('upload_type', 'link')
    again.set('external_url', 'https://example.com/again')
    again.set('description', 'Should fail')
    expect((await api('/api/v1/upload', { method: 'POST', body: again, bearer: token })).status).toBe(401)
    await context.close()
  })
})
