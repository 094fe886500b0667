import { chromium, type Browser, type BrowserContext } from 'playwright-core'

/** Debian's Chromium, never a downloaded browser. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  })
}

/** The phone every phone-width test uses: 390×844 CSS px at 2×, touch. */
export const PHONE = { width: 390, height: 844 } as const

export async function newContext(browser: Browser, baseURL: string, options: { mobile?: boolean } = {}): Promise<BrowserContext> {
  const context = await browser.newContext(options.mobile
    ? { baseURL, viewport: PHONE, deviceScaleFactor: 2, isMobile: true, hasTouch: true }
    : { baseURL, viewport: { width: 1280, height: 900 } })
  // A tab left open for the context's life: Chromium then keeps the site's renderer process, and
  // the JavaScript it compiled, from one page of a test to the next, where each page would
  // otherwise start a process and compile the site's scripts again (about half of a page's CPU).
  await context.newPage()
  return context
}
