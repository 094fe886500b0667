import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { launchBrowser } from '../support/browser'
import { api } from '../support/api'
import { verifyRegisteredEmail } from '../support/accounts'
import { ADMIN_EMAIL } from '../support/global-setup'
import { listEntryOf, makeAdmin } from '../support/seed'
import { goto, registerUser, seedLink, signedInContext } from './helpers'

describe('admin page', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await launchBrowser()
  })
  afterAll(() => browser?.close())

  it('shadow-bans a user, whose votes then stop counting', async () => {
    const admin = await registerUser({ email: ADMIN_EMAIL })
    await verifyRegisteredEmail(admin)
    const target = await registerUser()
    const member = await registerUser()
    const id = await seedLink(member, { url: 'https://example.com/shadow-ban-target' })

    // Non-admins get the 403 page.
    const memberContext = await signedInContext(browser, member)
    const memberPage = await memberContext.newPage()
    const denied = await goto(memberPage, '/admin')
    expect(denied?.status()).toBe(403)
    await memberContext.close()

    const context = await signedInContext(browser, admin)
    const page = await context.newPage()
    await goto(page, '/admin')
    await page.fill('#user-search', target.username)
    await page.click('form[role=search] button[type=submit]')
    await page.waitForURL(url => url.searchParams.get('q') === target.username)
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=admin-users] tbody tr').length === 1)
    const row = page.locator(`tr[data-username="${target.username}"]`)
    await expect(row.count()).resolves.toBe(1)
    // Banning asks first, in the row: Cancel changes nothing and gives the focus back; "Yes" bans.
    await row.locator(`button[aria-label="Shadow-ban ${target.username}"]`).click()
    const asking = row.locator(`[role=group][aria-label="Confirm shadow-banning ${target.username}"]`)
    await expect(asking.innerText()).resolves.toContain(`Shadow-ban ${target.username}? Their votes stop counting at once, and they are not told.`)
    await expect(page.evaluate(() => document.activeElement?.textContent?.trim())).resolves.toBe('Cancel')
    await page.keyboard.press('Enter')
    await expect(page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).resolves.toBe(`Shadow-ban ${target.username}`)
    await expect(row.locator('.badge-danger').count()).resolves.toBe(0)
    expect((await api(`/api/admin/users?q=${target.username}`, { token: admin.token })).body.users[0].shadowBanned).toBe(false)
    await row.locator(`button[aria-label="Shadow-ban ${target.username}"]`).click()
    await asking.locator('[data-testid=confirm-shadow-ban]').click()
    await row.locator('.badge-danger').waitFor()
    // "Yes" gives the focus back to the button, now the one that lifts the ban.
    await page.waitForFunction(label => document.activeElement?.getAttribute('aria-label') === label, `Lift shadow-ban of ${target.username}`, { timeout: 2000 })
    await expect(row.innerText()).resolves.toContain('shadow-banned')
    await expect(page.innerText('[data-testid=admin-status]')).resolves.toContain(`${target.username} is now shadow-banned`)

    const users = await api(`/api/admin/users?q=${target.username}`, { token: admin.token })
    expect(users.status).toBe(200)
    expect(users.body.users).toEqual([expect.objectContaining({ id: target.id, username: target.username, shadowBanned: true })])

    // The banned user's vote is accepted but does not move the counts.
    const vote = await api('/api/vote', { method: 'POST', token: target.token, body: { uploadId: id, vote: 'fucks' } })
    expect(vote.status).toBe(200)
    expect((await listEntryOf(member, id)).stats).toMatchObject({ upvotes: 0, downvotes: 0, voteCount: 0 })

    // Lift the ban again from the page.
    await row.locator(`button[aria-label="Lift shadow-ban of ${target.username}"]`).click()
    await row.locator('.badge-danger').waitFor({ state: 'detached' })
    expect((await api(`/api/admin/users?q=${target.username}`, { token: admin.token })).body.users[0].shadowBanned).toBe(false)
    await context.close()
  })
  it('adds and removes a tag alias and an implication, which the tag page shows', async () => {
    const admin = await makeAdmin(await registerUser())
    const [from, to, implied] = ['b-from', 'b-to', 'b-implied'].map(prefix => `${prefix}-${randomUUID().slice(0, 6)}`) as [string, string, string]
    await seedLink(admin, { tags: [to, implied] })
    const context = await signedInContext(browser, admin)
    const page = await context.newPage()
    await goto(page, '/admin?tab=tags')
    /** Adding a rule asks first, since removing it later undoes nothing: "Yes" adds it. */
    const add = async (kind: 'alias' | 'implication') => {
      await page.click(`[data-testid=${kind}-form] button[type=submit]`)
      await page.click(`[data-testid=${kind}-confirm-yes]`)
    }
    // Typed as the rules are shown, with a # and spaces around.
    await page.fill('#alias-from', ` #${from} `)
    await page.fill('#alias-to', `#${to}`)
    // The question says what it does for good; Cancel (it has the focus) adds nothing and gives the focus back.
    await page.click('[data-testid=alias-form] button[type=submit]')
    await expect(page.innerText('[data-testid=alias-confirm]')).resolves.toContain(`Every upload tagged #${from} moves to #${to}, and removing the alias later does not move them back.`)
    await expect(page.evaluate(() => document.activeElement?.textContent?.trim())).resolves.toBe('Cancel')
    await page.keyboard.press('Enter')
    await page.locator('[data-testid=alias-confirm]').waitFor({ state: 'detached' })
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('alias-submit')
    expect((await api('/api/admin/tags/rules', { token: admin.token })).body.aliases).not.toContainEqual({ from, to })
    await add('alias')
    await page.waitForFunction(text => document.querySelector('[data-testid=tag-rules-status]')?.textContent?.includes(text), `#${from} now resolves to #${to}`)
    await expect(page.innerText('[data-testid=alias-list]')).resolves.toContain(`#${from} → #${to}`)
    // A tag no upload was ever given: the answer names it, and what a rule needs.
    await page.fill('#implication-tag', to)
    await page.fill('#implication-implies', `${implied}-none`)
    await add('implication')
    await page.waitForFunction(text => document.querySelector('[data-testid=tag-rules-status]')?.textContent?.includes(text),
      `No such tag: #${implied}-none. A rule can only name a tag some upload has been given.`)
    await page.fill('#implication-implies', implied)
    await add('implication')
    await page.waitForFunction(text => document.querySelector('[data-testid=tag-rules-status]')?.textContent?.includes(text), `#${to} now implies #${implied}`)
    // The way back would be a circle: it says so.
    await page.fill('#implication-tag', implied)
    await page.fill('#implication-implies', to)
    await add('implication')
    await page.waitForFunction(text => document.querySelector('[data-testid=tag-rules-status]')?.textContent === text,
      'Not added: it would make a circle, a tag implying itself through the others.')
    await page.fill('#implication-implies', implied)
    await add('implication')
    await page.waitForFunction(text => document.querySelector('[data-testid=tag-rules-status]')?.textContent === text, 'Not added: a tag cannot imply itself.')

    // The alias's page is its tag's, under the name it was reached by, which it does not list again.
    await goto(page, `/tags/${from}`)
    const rules = await page.innerText('[data-testid=tag-rules]')
    expect(rules).toContain(`Alias of\n#${to}`)
    expect(rules).not.toContain('Also known as')
    expect(rules).toContain(`Implies\n#${implied}`)
    await expect(page.locator('link[rel=canonical]').getAttribute('href')).resolves.toMatch(new RegExp(`/tags/${to}$`))
    await page.getByRole('heading', { name: `Uploads tagged #${to}` }).waitFor()
    await goto(page, `/tags/${to}`)
    expect(await page.innerText('[data-testid=tag-rules]')).toContain(`Also known as\n#${from}`)
    // The search box suggests the alias as one, with its tag's count.
    await page.getByRole('combobox', { name: 'Search uploads' }).pressSequentially(from)
    const suggestion = await page.getByRole('option', { name: new RegExp(`^${from}`) }).textContent()
    expect(suggestion?.replace(/\s+/g, ' ').trim()).toBe(`${from} alias of ${to} · 1 upload`)

    await goto(page, '/admin?tab=tags')
    await page.click(`button[aria-label="Remove alias ${from}"]`)
    await page.waitForFunction(text => document.querySelector('[data-testid=tag-rules-status]')?.textContent?.includes(text), `#${from} is no longer an alias.`)
    await page.click(`button[aria-label="Remove implication ${to} implies ${implied}"]`)
    await page.waitForFunction(text => document.querySelector('[data-testid=tag-rules-status]')?.textContent?.includes(text), `#${to} no longer implies #${implied}.`)
    expect((await api('/api/admin/tags/rules', { token: admin.token })).body).toMatchObject({ aliases: expect.not.arrayContaining([expect.objectContaining({ from })]) })
    await context.close()
  })
})
