import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { api } from '../support/api'
import { launchBrowser } from '../support/browser'
import { makeAdmin } from '../support/seed'
import { createUpload, goto, noisePng, registerUser, signedInContext, watchErrors } from './helpers'

// docs/behaviour.md, "Curation": the banned-images list with its Lift button, and "Find similar".
describe('banned images and search by image', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await launchBrowser()
  })
  afterAll(() => browser?.close())

  it('an admin lifts a ban from the admin area; "Find similar" on an upload page finds it', async () => {
    const owner = await registerUser()
    const admin = await makeAdmin(await registerUser())
    const banned = await createUpload(owner, { description: 'Banned in the browser' })
    expect((await api(`/api/upload/${banned}`, { method: 'DELETE', token: admin.token })).status).toBe(200)
    const context = await signedInContext(browser, admin)
    const page = await context.newPage()
    const errors = watchErrors(page)

    await goto(page, '/admin?tab=bans')
    const row = page.locator(`[data-upload-id="${banned}"]`)
    await row.waitFor()
    await row.getByRole('button', { name: /Lift the ban/ }).click()
    await row.locator('[data-testid=confirm-lift-ban]').click()
    await page.waitForFunction(() => document.querySelector('[data-testid=bans-status]')?.textContent?.includes('Ban lifted'))
    await row.waitFor({ state: 'detached' })
    const bans = await api('/api/admin/banned-media?limit=100', { token: admin.token })
    expect(bans.body.items.map((item: { uploadId: string }) => item.uploadId)).not.toContain(banned)

    const id = await createUpload(owner, { image: await noisePng(), description: 'Look for my twins' })
    await goto(page, `/upload/${id}`)
    await page.click('[data-testid=find-similar]')
    await page.waitForURL(url => url.pathname === '/search' && url.searchParams.get('similar') === id)
    const results = page.locator('[data-testid=image-search-results]')
    await results.waitFor()
    await expect(results.locator(`a[href="/upload/${id}"]`).count()).resolves.toBeGreaterThan(0)
    await expect(page.locator('[data-testid=image-search-status]').innerText()).resolves.toBe('1 similar upload')
    expect(errors).toEqual([])
    await context.close()
  }, 60_000)

  it('an admin removes someone else\'s upload from its page, with a reason, keeping its image allowed', async () => {
    const owner = await registerUser()
    const admin = await makeAdmin(await registerUser())
    const id = await createUpload(owner, { description: 'Removed from its page' })
    const context = await signedInContext(browser, admin)
    const page = await context.newPage()
    const errors = watchErrors(page)
    await goto(page, `/upload/${id}`)
    await page.click('[data-testid=delete-upload]')
    // The question says what a moderator's removal does, and asks for its reason and the ban (ticked).
    const asking = page.getByRole('group', { name: 'Confirm deletion' })
    await expect(asking.innerText()).resolves.toContain('Remove this upload for everyone?')
    await expect(asking.locator('[data-testid=remove-ban]').isChecked()).resolves.toBe(true)
    await asking.getByLabel('Reason').fill('Off topic')
    await asking.locator('[data-testid=remove-ban]').uncheck()
    await asking.locator('[data-testid=confirm-delete]').click()
    await page.waitForURL(url => url.pathname === '/')
    // The page it lands on says it was done.
    await page.waitForFunction(() => document.querySelector('[data-testid=toast-text]')?.textContent === 'Upload removed.')
    expect((await api(`/api/upload/${id}`)).status).toBe(410)
    const log = await api('/api/admin/modlog?limit=100', { token: admin.token })
    expect(log.body.entries.find((entry: { action: string, targetId: string }) => entry.action === 'upload_removed' && entry.targetId === id)).toMatchObject({ note: 'Off topic' })
    const bans = await api('/api/admin/banned-media?limit=100', { token: admin.token })
    expect(bans.body.items.map((item: { uploadId: string }) => item.uploadId)).not.toContain(id)
    expect(errors).toEqual([])
    await context.close()
  })
})
