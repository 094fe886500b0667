import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { launchBrowser, newContext } from '../support/browser'
import { api } from '../support/api'
import { goto, registerUser, signedInContext, watchErrors } from './helpers'
import { sharedServer } from '../support/shared-server'

describe('pages in Chromium', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await launchBrowser()
  })
  afterAll(() => browser?.close())

  it('renders the home page with its sections and no script errors', async () => {
    const context = await newContext(browser, sharedServer().baseURL)
    const page = await context.newPage()
    const errors = watchErrors(page)
    const response = await goto(page, '/')
    expect(response?.status()).toBe(200)
    await expect(page.title()).resolves.toBe('Does It Fuck?')
    await expect(page.innerText('#recent-title')).resolves.toBe('Most recent')
    await expect(page.innerText('#top-title')).resolves.toBe('Top voted')
    await expect(page.innerText('#feed-title')).resolves.toBe('All uploads')
    await expect(page.locator('header a[href="/login"]').count()).resolves.toBe(1)
    expect(errors).toEqual([])
    await context.close()
  })

  it('stays on the page, and says why, when another page\'s code cannot be fetched offline', async () => {
    const context = await newContext(browser, sharedServer().baseURL)
    const page = await context.newPage()
    await goto(page, '/')
    await context.setOffline(true)
    await page.click('footer a[href="/docs"]')
    await expect(page.locator('[data-testid=toast-text]').textContent()).resolves.toBe('That page could not be opened: the site cannot be reached. Check your connection and try again.')
    expect(new URL(page.url()).pathname).toBe('/')
    await expect(page.innerText('#recent-title')).resolves.toBe('Most recent')
    // Back online, the same link opens the page.
    await context.setOffline(false)
    await page.click('footer a[href="/docs"]')
    await page.waitForURL(url => url.pathname === '/docs')
    await context.close()
  })

  it('renders the OpenAPI description at /docs, grouped by tag', async () => {
    const context = await newContext(browser, sharedServer().baseURL)
    const page = await context.newPage()
    const errors = watchErrors(page)
    const document = (await api('/api/openapi.json')).body
    await goto(page, '/docs')
    await expect(page.title()).resolves.toBe('API documentation · Does It Fuck?')
    const operations = Object.values(document.paths as Record<string, object>).reduce((n: number, methods) => n + Object.keys(methods).length, 0)
    await expect(page.locator('details.op').count()).resolves.toBe(operations)
    const [path, methods] = Object.entries(document.paths as Record<string, Record<string, { summary: string, tags: string[] }>>)[0]!
    const [method, operation] = Object.entries(methods)[0]!
    await expect(page.locator('section.group').count()).resolves.toBe(new Set(Object.values(document.paths as Record<string, Record<string, { tags: string[] }>>).flatMap(m => Object.values(m).map(o => o.tags[0]))).size)
    // Opening an operation shows method, path, summary and its responses.
    const first = page.locator('details.op').filter({ has: page.locator('code.path', { hasText: path }) }).first()
    await expect(first.locator('.method').innerText()).resolves.toBe(method.toUpperCase())
    await expect(first.locator('.summary').innerText()).resolves.toBe(operation.summary)
    await first.locator('summary').click()
    await expect(first.innerText()).resolves.toContain('Responses')
    await expect(first.locator('.status').first().innerText()).resolves.toMatch(/^\d{3}$/)
    await expect(page.innerText('#authentication')).resolves.toContain('auth-token')
    expect(errors).toEqual([])
    await context.close()
  })

  it('answers unknown pages and users with the 404 page', async () => {
    const context = await newContext(browser, sharedServer().baseURL)
    const page = await context.newPage()
    let response = await goto(page, '/no/such/page')
    expect(response?.status()).toBe(404)
    await expect(page.innerText('[data-testid=error-page] h1')).resolves.toBe('Page not found')
    await expect(page.title()).resolves.toBe('Page not found · Does It Fuck?')
    response = await goto(page, '/user/nobody_here_at_all')
    expect(response?.status()).toBe(404)
    await expect(page.innerText('[data-testid=error-page]')).resolves.toContain('There is no user called “nobody_here_at_all”')
    await page.click('[data-testid=error-page] button')
    await page.waitForURL(url => url.pathname === '/')
    await context.close()
  })

  it('answers an admin page for a member with 403 and a plain link to sign in', async () => {
    const context = await signedInContext(browser, await registerUser())
    const page = await context.newPage()
    const response = await goto(page, '/admin')
    expect(response?.status()).toBe(403)
    await expect(page.innerText('[data-testid=error-page] h1')).resolves.toBe('Not allowed')
    await expect(page.innerText('[data-testid=error-page]')).resolves.toContain('This page is for admins only.')
    await expect(page.locator('[data-testid=error-page] a.btn').evaluateAll(links => links.map(link => `${link.getAttribute('href')} ${link.textContent}`))).resolves.toEqual(['/login Sign in'])
    await context.close()
  })

  it('validates the registration form inline with the shared schemas and shows conflicts', async () => {
    const existing = await registerUser()
    const context = await newContext(browser, sharedServer().baseURL)
    const page = await context.newPage()
    await goto(page, '/register')
    await page.fill('#email', 'not-an-email')
    await page.fill('#username', 'x')
    await page.fill('#password', 'short')
    await page.click('button[type=submit]')
    await expect(page.innerText('#email-error')).resolves.toBe('Invalid email')
    await expect(page.innerText('#username-error')).resolves.toBe('Username must be 3 to 30 characters')
    await expect(page.innerText('#password-error')).resolves.toBe('Password must be 8 to 256 characters')
    await expect(page.getAttribute('#email', 'aria-invalid')).resolves.toBe('true')

    await page.fill('#email', existing.email)
    await page.fill('#username', `${existing.username}_x`.slice(0, 30))
    await page.fill('#password', 'correct horse battery')
    await page.click('button[type=submit]')
    await page.locator('#email-error', { hasText: 'Email already registered' }).waitFor()
    await context.close()
  })

  it('signs in, shows the signed-in header, and refuses a wrong password', async () => {
    const user = await registerUser()
    const context = await newContext(browser, sharedServer().baseURL)
    const page = await context.newPage()
    await goto(page, '/login?redirect=/settings')
    await page.fill('#email', user.email)
    await page.fill('#password', 'wrong password')
    await page.click('button[type=submit]')
    await page.locator('[data-testid=form-error]').waitFor()
    await expect(page.innerText('[data-testid=form-error]')).resolves.toBe('Invalid email or password')
    await page.fill('#password', user.password)
    await page.click('button[type=submit]')
    await page.waitForURL(url => url.pathname === '/settings')
    await expect(page.innerText('[data-testid=header-user]')).resolves.toContain(user.username)
    await expect(page.innerText('[data-testid=profile-username]')).resolves.toBe(user.username)
    await context.close()
  })

  it('signs in to / when the redirect would leave the site', async () => {
    const user = await registerUser()
    const context = await newContext(browser, sharedServer().baseURL)
    const page = await context.newPage()
    const errors = watchErrors(page)
    await goto(page, '/login?redirect=/%5Cevil.example')
    await page.fill('#email', user.email)
    await page.fill('#password', user.password)
    await page.click('button[type=submit]')
    await page.waitForURL(url => url.pathname === '/')
    expect(new URL(page.url()).host).toBe(new URL(sharedServer().baseURL).host)
    await page.locator('[data-testid=header-user]').waitFor()
    await expect(page.locator('[data-testid=form-error]').count()).resolves.toBe(0)
    expect(errors).toEqual([])
    await context.close()
  })

  it('lists every settings section in the settings menu, each leading to its section, none moving once shown', async () => {
    const user = await registerUser()
    const context = await signedInContext(browser, user)
    const page = await context.newPage()
    const response = await goto(page, '/settings')
    // The lists come with the page: a button clicked at once must not move under the pointer as rows arrive.
    expect(await response!.text()).toContain('data-testid="session-list"')
    const tops = () => page.evaluate(() => [...document.querySelectorAll('.sections > [id]')].map(section => Math.round(section.getBoundingClientRect().top + scrollY)))
    const shown = await tops()
    await page.waitForLoadState('networkidle')
    expect(await tops()).toEqual(shown)
    const links = await page.locator('.toc nav a').evaluateAll(elements => elements.map(a => [a.textContent!.trim(), a.getAttribute('href')]))
    expect(links).toEqual([
      ['Profile', '#profile'], ['Password', '#password'], ['Two-step verification', '#mfa'], ['Passkeys', '#passkeys'],
      ['Sessions', '#sessions'], ['API tokens', '#tokens'], ['Filters', '#filters'], ['Content ratings', '#content-ratings'], ['Linked accounts', '#linked'], ['Your data', '#own-data'],
    ])
    const sections = await page.evaluate(() => [...document.querySelectorAll('.sections > [id]')].map(section => section.id))
    expect(sections).toEqual(links.map(([, href]) => href!.slice(1)))
    await context.close()
  })

  it('sends guests from signed-in pages to /login and back', async () => {
    const context = await newContext(browser, sharedServer().baseURL)
    const page = await context.newPage()
    await goto(page, '/upload/new')
    expect(new URL(page.url()).pathname).toBe('/login')
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/upload/new')
    await context.close()
  })

  it('switches theme and keeps it across reloads', async () => {
    const user = await registerUser()
    const context = await signedInContext(browser, user)
    const page = await context.newPage()
    await goto(page, '/')
    await expect(page.getAttribute('html', 'data-theme')).resolves.toBeNull()
    await page.click('button[aria-label^="Theme: system"]')
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light')
    await page.click('button[aria-label^="Theme: light"]')
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark')
    await goto(page, '/')
    await expect(page.getAttribute('html', 'data-theme')).resolves.toBe('dark')
    await context.close()
  })

  it('opens the navigation menu on a phone', async () => {
    const user = await registerUser()
    const context = await signedInContext(browser, user, { mobile: true })
    const page = await context.newPage()
    await goto(page, '/')
    await expect(page.isVisible('#site-nav')).resolves.toBe(false)
    await page.click('button[aria-controls=site-nav]')
    await expect(page.isVisible('#site-nav')).resolves.toBe(true)
    await expect(page.innerText('#site-nav')).resolves.toContain(user.username)
    await context.close()
  })
})
