import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { registerUser, type TestUser } from '../support/api'
import { launchBrowser, newContext } from '../support/browser'
import { sharedServer } from '../support/shared-server'

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')

/**
 * Another site (another 127.0.0.1 port) whose page posts a form to the service's
 * /api/auth as soon as it loads: a login CSRF, which would sign the visitor
 * into the attacker's account (docs/behaviour.md, Cross-site requests).
 */
function attackerSite(target: string, attacker: TestUser): Promise<Server> {
  const page = (form: string) => `<!doctype html><html><body>${form}<script>document.forms[0].submit()</script></body></html>`
  const pages: Record<string, string> = {
    '/urlencoded': page(`<form method="post" action="${target}/api/auth">
      <input name="action" value="login"><input name="email" value="${escape(attacker.email)}"><input name="password" value="${escape(attacker.password)}"></form>`),
    // text/plain can smuggle a JSON-looking body: {"action":"login",...,"x":"="}
    '/text-plain': page(`<form method="post" enctype="text/plain" action="${target}/api/auth">
      <input name="${escape(`{"action":"login","email":"${attacker.email}","password":"${attacker.password}","x":"`)}" value='"}'></form>`),
  }
  const server = createServer((req, res) => {
    const html = pages[req.url ?? '']
    res.writeHead(html ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' }).end(html ?? 'not found')
  })
  return new Promise(resolve => server.listen(0, '127.0.0.1', () => resolve(server)))
}

describe('a cross-site form cannot sign a visitor in (Chromium)', () => {
  let browser: Browser
  let attacker: TestUser
  let site: Server
  let siteUrl: string
  beforeAll(async () => {
    browser = await launchBrowser()
    attacker = await registerUser()
    site = await attackerSite(sharedServer().baseURL, attacker)
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    await browser?.close()
    await new Promise(resolve => site?.close(resolve))
  })

  it.each(['/urlencoded', '/text-plain'])('a %s form POST to /api/auth is refused and sets no cookie', async (form) => {
    const baseURL = sharedServer().baseURL
    const context = await newContext(browser, baseURL)
    const page = await context.newPage()
    const posted = page.waitForResponse(response => response.url() === `${baseURL}/api/auth` && response.request().method() === 'POST')
    await page.goto(`${siteUrl}${form}`)
    const response = await posted
    expect(response.request().headers().origin).toBe(siteUrl)
    expect(response.status()).toBe(403)
    expect(await response.json()).toEqual({ statusCode: 403, statusMessage: 'Forbidden', message: 'Cross-site request blocked' })
    expect((await context.cookies(baseURL)).map(cookie => cookie.name)).not.toContain('auth-token')
    // The visitor is still signed out on the site itself.
    const profile = await page.goto(`${baseURL}/api/profile`)
    expect(profile?.status()).toBe(401)
    await context.close()
  })
})
