import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { api } from '../support/api'
import { launchBrowser, newContext } from '../support/browser'
import { makeAdmin } from '../support/seed'
import { createUpload, goto, registerUser, screenshot, seedLink, signedInContext, watchErrors } from './helpers'
import { sharedServer } from '../support/shared-server'

describe('moderation and own data', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await launchBrowser()
  })
  afterAll(() => browser?.close())

  it('a visitor reports an upload; an admin sees every reason, claims it, removes the upload, and finds it named in the log', async () => {
    const owner = await registerUser()
    const member = await registerUser()
    const admin = await makeAdmin(await registerUser())
    const id = await seedLink(owner, { url: 'https://example.com/reported-in-browser', description: 'Reported in the browser' })

    // A visitor without an account reports it through the dialog.
    const visitor = await newContext(browser, sharedServer().baseURL)
    const page = await visitor.newPage()
    const errors = watchErrors(page)
    await goto(page, `/upload/${id}`)
    await page.click('[data-testid=report-open]')
    const dialog = page.locator('[data-testid=report-dialog]')
    await dialog.waitFor({ state: 'visible' })
    // Escape closes it and gives the focus back to the button.
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'hidden' })
    await expect(page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).resolves.toBe('report-open')
    // Sending without a reason asks for one.
    await page.keyboard.press('Enter')
    await dialog.waitFor({ state: 'visible' })
    await page.click('[data-testid=report-submit]')
    await expect(dialog.locator('[role=alert]').innerText()).resolves.toContain('Choose a reason')
    await page.check('[data-testid=report-reason-spam]')
    await page.fill('[data-testid=report-details]', 'Selling things in every comment')
    // Closed by mistake: what was chosen and typed comes back with the dialog.
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'hidden' })
    await page.click('[data-testid=report-open]')
    await dialog.waitFor({ state: 'visible' })
    await expect(page.inputValue('[data-testid=report-details]')).resolves.toBe('Selling things in every comment')
    await expect(page.isChecked('[data-testid=report-reason-spam]')).resolves.toBe(true)
    await screenshot(page, 'report-dialog')
    await page.click('[data-testid=report-submit]')
    await page.waitForFunction(() => document.querySelector('[data-testid=report-status]')?.textContent?.includes('Thank you'))
    await dialog.waitFor({ state: 'hidden' })
    // Sent: nothing comes back.
    await page.click('[data-testid=report-open]')
    await expect(page.inputValue('[data-testid=report-details]')).resolves.toBe('')
    await page.keyboard.press('Escape')
    expect(errors).toEqual([])
    await visitor.close()

    // A member reports it too, for a graver reason.
    expect((await api(`/api/upload/${id}/report`, { method: 'POST', body: { reason: 'minor_safety', details: 'Shows a child' }, token: member.token })).status).toBe(201)
    const queued = await api('/api/admin/reports?limit=100', { token: admin.token })
    expect(queued.body.reports.find((group: { upload: { id: string } | null }) => group.upload?.id === id))
      .toMatchObject({ reason: 'minor_safety', details: 'Shows a child', status: 'open', reportCount: 2 })

    // The admin claims it on the Reports tab, then resolves it by removing the upload.
    const context = await signedInContext(browser, admin)
    const adminPage = await context.newPage()
    const adminErrors = watchErrors(adminPage)
    await goto(adminPage, '/admin')
    await adminPage.click('[data-testid=admin-tab-reports]')
    await adminPage.waitForURL(url => url.searchParams.get('tab') === 'reports')
    const open = adminPage.locator(`li[data-upload-id="${id}"]`)
    await open.waitFor()
    await expect(open.locator('[data-testid=report-count]').innerText()).resolves.toBe('2 reports')
    // Every reason with its count, the gravest first, and every report with its details and reporter.
    await expect(open.locator('[data-testid=report-reason]').allInnerTexts()).resolves.toEqual(['Endangers a minor × 1', 'Spam or advertising × 1'])
    const items = await open.locator('[data-testid=report-item]').allInnerTexts()
    expect(items).toHaveLength(2)
    expect(items[0]).toContain('Spam or advertising')
    expect(items[0]).toContain('by an anonymous visitor')
    expect(items[0]).toContain('“Selling things in every comment”')
    expect(items[1]).toContain('Endangers a minor')
    expect(items[1]).toContain(`by ${member.username}`)
    expect(items[1]).toContain('“Shows a child”')
    await screenshot(adminPage, 'admin-reports')
    await open.locator('[data-testid=report-claim]').click()
    await adminPage.waitForFunction(() => document.querySelector('[data-testid=reports-status]')?.textContent?.includes('Claimed 2 reports'))
    // Claimed, the group stays in the Open view with its resolve action.
    const claimed = adminPage.locator(`li[data-upload-id="${id}"][data-status="claimed"]`)
    await claimed.waitFor()
    await expect(claimed.locator('[data-testid=report-claimed-by]').innerText()).resolves.toBe('· claimed by you')
    await expect(claimed.locator('[data-testid=report-claim]').count()).resolves.toBe(0)
    expect(new URL(adminPage.url()).searchParams.get('status')).toBeNull()
    // Cancel, pressed from the keyboard, takes the resolve form away: Resolve has the keyboard back.
    await claimed.locator('[data-testid=report-resolve]').focus()
    await adminPage.keyboard.press('Enter')
    await claimed.locator('[data-testid=report-resolve-form] button:has-text("Cancel")').focus()
    await adminPage.keyboard.press('Enter')
    await claimed.locator('[data-testid=report-resolve-form]').waitFor({ state: 'detached' })
    await adminPage.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'report-resolve', null, { timeout: 2000 })
    await claimed.locator('[data-testid=report-resolve]').click()
    await claimed.locator('[data-testid=report-action]').selectOption('remove_upload')
    await claimed.locator('[data-testid=report-note]').fill('Spam, removed')
    await claimed.locator('[data-testid=report-resolve-submit]').click()
    await adminPage.waitForFunction(() => document.querySelector('[data-testid=reports-status]')?.textContent?.includes('remove upload'))
    await claimed.waitFor({ state: 'detached' })
    expect((await api(`/api/upload/${id}`)).status).toBe(410)

    // The Log tab shows the removal, the claim and the resolution, by this admin, naming what they were about.
    await adminPage.click('[data-testid=admin-tab-log]')
    await adminPage.waitForURL(url => url.searchParams.get('tab') === 'log')
    const removal = adminPage.locator(`tr[data-action="upload_removed"][data-target-id="${id}"]`)
    await removal.waitFor()
    await expect(removal.innerText()).resolves.toContain(admin.username)
    await expect(removal.innerText()).resolves.toContain('Spam, removed')
    await expect(removal.locator('[data-testid=modlog-target]').innerText()).resolves.toBe('upload Reported in the browser (gone)')
    await expect(removal.locator('[data-testid=modlog-target] a').count()).resolves.toBe(0)
    const resolution = adminPage.locator('tr[data-action="report_resolved"]', { hasText: 'remove_upload: Spam, removed' }).first()
    await expect(resolution.locator('[data-testid=modlog-target]').innerText()).resolves.toBe('report Endangers a minor')
    // A target still there is linked by its name.
    const ban = await api(`/api/admin/users/${owner.id}/shadow-ban`, { method: 'POST', body: { shadowBanned: true }, token: admin.token })
    expect(ban.status).toBe(200)
    await adminPage.reload()
    const banned = adminPage.locator(`tr[data-action="shadow_ban_on"][data-target-id="${owner.id}"]`)
    await banned.waitFor()
    await expect(banned.locator('[data-testid=modlog-target] a').getAttribute('href')).resolves.toBe(`/user/${owner.username}`)
    await expect(banned.locator('[data-testid=modlog-target] a').innerText()).resolves.toBe(owner.username)
    await screenshot(adminPage, 'admin-log')
    // The tabs answer the arrow keys.
    await adminPage.focus('[data-testid=admin-tab-log]')
    await adminPage.keyboard.press('ArrowLeft')
    await adminPage.waitForURL(url => url.searchParams.get('tab') === 'tags')
    expect(adminErrors).toEqual([])
    await context.close()
  })

  it('works through the queue as asked: the image ban chosen for each removal', async () => {
    const owner = await registerUser()
    const member = await registerUser()
    const admin = await makeAdmin(await registerUser())
    const [kept, banned] = await Promise.all([createUpload(owner, { description: 'Removed, image allowed' }), createUpload(owner, { description: 'Removed, image banned' })])
    for (const id of [kept, banned]) {
      expect((await api(`/api/upload/${id}/report`, { method: 'POST', body: { reason: 'minor_safety' }, token: member.token })).status).toBe(201)
    }
    const context = await signedInContext(browser, admin)
    const page = await context.newPage()
    const errors = watchErrors(page)
    await goto(page, '/admin?tab=reports')
    const groupOf = (id: string) => page.locator(`li[data-upload-id="${id}"]`)

    // The ban is a choice per removal: unticked for one group, the next form starts ticked again.
    await groupOf(kept).locator('[data-testid=report-resolve]').click()
    await groupOf(kept).locator('[data-testid=report-action]').selectOption('remove_upload')
    await groupOf(kept).locator('[data-testid=report-ban]').uncheck()
    await groupOf(kept).locator('button:has-text("Cancel")').click()
    await groupOf(banned).locator('[data-testid=report-resolve]').click()
    await groupOf(banned).locator('[data-testid=report-action]').selectOption('remove_upload')
    await expect(groupOf(banned).locator('[data-testid=report-ban]').isChecked()).resolves.toBe(true)
    await groupOf(banned).locator('[data-testid=report-resolve-submit]').click()
    await groupOf(banned).waitFor({ state: 'detached' })
    // Unticked, the image stays allowed: the choice is what is carried out.
    await groupOf(kept).locator('[data-testid=report-resolve]').click()
    await groupOf(kept).locator('[data-testid=report-action]').selectOption('remove_upload')
    await groupOf(kept).locator('[data-testid=report-ban]').uncheck()
    await groupOf(kept).locator('[data-testid=report-resolve-submit]').click()
    await page.waitForFunction(() => document.querySelector('[data-testid=reports-status]')?.textContent?.includes('remove upload'))
    await groupOf(kept).waitFor({ state: 'detached' })
    const bans = (await api('/api/admin/banned-media?limit=100', { token: admin.token })).body.items.map((item: { uploadId: string }) => item.uploadId)
    expect(bans).toContain(banned)
    expect(bans).not.toContain(kept)
    expect(errors).toEqual([])
    await context.close()
  })

  it('claims from the keyboard, keeps what it claimed on screen, and says when another admin was first', async () => {
    const owner = await registerUser()
    const member = await registerUser()
    const admin = await makeAdmin(await registerUser())
    const other = await makeAdmin(await registerUser())
    const [first, second, third, fourth] = await Promise.all(['first', 'second', 'third', 'fourth'].map(name => seedLink(owner, { description: `Queue ${name}` }))) as [string, string, string, string]
    const reportIds: string[] = []
    for (const id of [first, second, third, fourth]) {
      const filed = await api(`/api/upload/${id}/report`, { method: 'POST', body: { reason: 'minor_safety' }, token: member.token })
      expect(filed.status).toBe(201)
      reportIds.push(filed.body.report.id)
    }
    const [context, otherContext] = await Promise.all([signedInContext(browser, admin), signedInContext(browser, other)])
    const [page, otherPage] = await Promise.all([context.newPage(), otherContext.newPage()])
    const errors = watchErrors(page)
    await goto(page, '/admin?tab=reports')
    await goto(otherPage, '/admin?tab=reports')
    const groupOf = (id: string, on = page) => on.locator(`li[data-upload-id="${id}"]`)
    const focused = () => page.evaluate(() => `${document.activeElement?.getAttribute('data-testid')} ${document.activeElement?.closest('li')?.getAttribute('data-upload-id')}`)

    // Claim, pressed from the keyboard, hands the keyboard to the group's Resolve.
    await groupOf(first).locator('[data-testid=report-claim]').focus()
    await page.keyboard.press('Enter')
    await groupOf(first).locator('[data-testid=report-claimed-by]').waitFor()
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'report-resolve', null, { timeout: 2000 })
    expect(await focused()).toBe(`report-resolve ${first}`)
    // Escape takes the resolve form away as Cancel does: Resolve has the keyboard back.
    await page.keyboard.press('Enter')
    await groupOf(first).locator('[data-testid=report-resolve-form]').waitFor()
    await page.keyboard.press('Escape')
    await groupOf(first).locator('[data-testid=report-resolve-form]').waitFor({ state: 'detached', timeout: 2000 })
    expect(await focused()).toBe(`report-resolve ${first}`)

    // Resolving another group leaves the groups claimed here on screen, as claimed, to be resolved next.
    await groupOf(third).locator('[data-testid=report-claim]').click()
    await groupOf(third).locator('[data-testid=report-claimed-by]').waitFor()
    await groupOf(second).locator('[data-testid=report-resolve]').click()
    await groupOf(second).locator('[data-testid=report-resolve-submit]').click()
    await groupOf(second).waitFor({ state: 'detached' })
    await expect(groupOf(first).getAttribute('data-status')).resolves.toBe('claimed')
    await expect(groupOf(third).getAttribute('data-status')).resolves.toBe('claimed')

    // The other admin's screen still shows all three as open. Resolving one already resolved, or
    // claiming one already claimed, is refused: it says why and brings the queue up to date.
    const otherStatus = otherPage.locator('[data-testid=reports-status]')
    await groupOf(second, otherPage).locator('[data-testid=report-resolve]').click()
    await groupOf(second, otherPage).locator('[data-testid=report-resolve-submit]').click()
    await otherPage.waitForFunction(() => document.querySelector('[data-testid=reports-status]')?.textContent?.includes('Report already resolved'))
    await groupOf(second, otherPage).waitFor({ state: 'detached', timeout: 5000 })
    await groupOf(first, otherPage).waitFor({ state: 'detached' })
    expect((await api(`/api/admin/reports/${reportIds[3]!}/claim`, { method: 'POST', token: admin.token })).status).toBe(200)
    await groupOf(fourth, otherPage).locator('[data-testid=report-claim]').click()
    await otherPage.waitForFunction(() => document.querySelector('[data-testid=reports-status]')?.textContent?.includes('Report claimed by another admin'))
    await groupOf(fourth, otherPage).waitFor({ state: 'detached', timeout: 5000 })
    expect(await otherStatus.innerText()).toBe('Report claimed by another admin. The queue now shows it as it stands.')
    // Another status shows another list in place, and says which, with its count.
    await otherPage.click('[data-testid=reports-status-claimed]')
    await otherPage.waitForFunction(() => /^Claimed reports: \d+ reported items?$/.test(document.querySelector('[data-testid=route-announcer]')?.textContent ?? ''), null, { timeout: 5000 })
    // A group another admin claimed says who has it, and offers no Resolve: it is theirs to resolve.
    await groupOf(fourth, otherPage).locator('[data-testid=report-claimed-by]').waitFor()
    await expect(groupOf(fourth, otherPage).locator('[data-testid=report-resolve]').count()).resolves.toBe(0)
    expect(errors).toEqual([])
    await Promise.all([context.close(), otherContext.close()])
  })

  it('an admin reverts a vandalised upload and locks it from its history, each result said in a live region there beforehand', async () => {
    const owner = await registerUser()
    const admin = await makeAdmin(await registerUser())
    const id = await createUpload(owner, { link: 'https://example.com/vandalised', description: 'Original words' })
    expect((await api(`/api/upload/${id}`, { method: 'PATCH', token: owner.token, body: { description: 'Vandalised words' } })).status).toBe(200)
    const context = await signedInContext(browser, admin)
    const page = await context.newPage()
    const errors = watchErrors(page)
    await goto(page, `/upload/${id}`)
    await page.click('[data-testid=history-toggle]')
    await page.waitForSelector('[data-testid=history-list] li')
    // A live region out of the accessibility tree (display: none) while empty is not heard when it fills.
    const status = page.locator('[data-testid=history-status]')
    await expect(status.evaluate(element => getComputedStyle(element).display)).resolves.not.toBe('none')
    await page.getByRole('button', { name: 'Revert to revision 1' }).click()
    await page.waitForFunction(() => document.querySelector('[data-testid=history-status]')?.textContent?.trim() === 'Restored revision 1.')
    await page.waitForFunction(() => document.querySelector('[data-testid=upload-description]')?.textContent?.includes('Original words'))
    await page.click('[data-testid=toggle-lock]')
    await page.waitForFunction(() => document.querySelector('[data-testid=history-status]')?.textContent?.trim() === 'Locked: only admins can edit it now.')
    expect((await api(`/api/upload/${id}`, { token: owner.token })).body).toMatchObject({ description: 'Original words', locked: 1, revision: 3 })
    expect(errors).toEqual([])
    await context.close()
  })

  it('deletes an account from the settings page', async () => {
    const user = await registerUser()
    const uploadId = await createUpload(user, { description: 'Goes with its account' })
    const context = await signedInContext(browser, user)
    const page = await context.newPage()
    const errors = watchErrors(page)
    await goto(page, '/settings')
    await expect(page.getAttribute('[data-testid=own-data-download]', 'href')).resolves.toBe('/api/profile/export')

    // A wrong password is refused and keeps the account.
    await page.fill('#delete-password', 'not my password')
    await page.check('[data-testid=delete-account-confirm]')
    await page.click('[data-testid=delete-account-submit]')
    await expect(page.locator('[data-testid=delete-account-error]').innerText()).resolves.toBe('Invalid password or code')
    await page.locator('#own-data').scrollIntoViewIfNeeded()
    await screenshot(page, 'settings-own-data')
    expect((await api('/api/profile', { token: user.token })).status).toBe(200)

    await page.fill('#delete-password', user.password)
    await page.click('[data-testid=delete-account-submit]')
    await page.waitForURL(url => url.pathname === '/')
    // The home page says what happened, in a live region.
    await expect(page.locator('[data-testid=toast-text]').innerText()).resolves.toBe('Your account and everything in it have been deleted.')
    await expect(page.getAttribute('[data-testid=toast]', 'aria-live')).resolves.toBe('polite')
    expect((await context.cookies()).find(cookie => cookie.name === 'auth-token')).toBeUndefined()
    expect((await api('/api/profile', { token: user.token })).status).toBe(401)
    expect((await api(`/api/upload/${uploadId}`)).status).toBe(404)
    expect(errors).toEqual([])
    await context.close()
  })
})
