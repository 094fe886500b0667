import type { BrowserContext, Page } from 'playwright-core'

/** Reports every Content-Security-Policy violation of the context's pages as a console error: it is an event, not always a console message. */
export async function reportViolations(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`)
    })
  })
}

/**
 * Everything a page complains about: console errors and warnings (a hydration
 * mismatch is one), uncaught exceptions, Content-Security-Policy violations,
 * failed requests and 4xx/5xx answers other than the document's expected status.
 */
export function complaints(page: Page, expectedStatus: number): string[] {
  const found: string[] = []
  page.on('console', (message) => {
    // Chromium's own line for a failed load: the response and requestfailed listeners below judge those.
    if (message.text().startsWith('Failed to load resource:')) return
    if (message.type() === 'error' || message.type() === 'warning') found.push(`console.${message.type()}: ${message.text()}`)
  })
  page.on('pageerror', error => found.push(`uncaught: ${error.message}`))
  page.on('requestfailed', (request) => {
    // A picture the browser stopped fetching because it no longer needs it (its card's
    // srcset fell back to the thumbnail): not a failure; an answer >= 400 is caught below.
    if (request.resourceType() === 'image' && request.failure()?.errorText === 'net::ERR_ABORTED') return
    found.push(`failed: ${request.method()} ${request.url()} ${request.failure()?.errorText}`)
  })
  page.on('response', (response) => {
    const isDocument = response.request().resourceType() === 'document' && response.request().frame() === page.mainFrame()
    if (response.status() >= 400 && !(isDocument && response.status() === expectedStatus)) found.push(`HTTP ${response.status()}: ${response.url()}`)
  })
  return found
}

/**
 * Waits until the page has had no request in flight for 500 ms; if that takes
 * longer than 20 s, fails naming the requests still open (a timeout alone
 * would not say which one kept the page busy).
 */
export async function settled(page: Page, open: Set<string>): Promise<void> {
  try {
    await page.waitForLoadState('networkidle', { timeout: 20_000 })
  }
  catch (error) {
    throw new Error(`Requests still open after 20 s: ${[...open].join(', ') || 'none'}`, { cause: error })
  }
}

/** The URLs of the page's requests that have not finished yet. */
export function openRequests(page: Page): Set<string> {
  const open = new Set<string>()
  page.on('request', request => open.add(request.url()))
  page.on('requestfinished', request => open.delete(request.url()))
  page.on('requestfailed', request => open.delete(request.url()))
  return open
}
