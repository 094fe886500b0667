/**
 * `npm run screenshots` (after `npm run build`): starts the built server on 127.0.0.1
 * with a throwaway data dir, fills it with a few uploads and votes, and writes
 * screenshots for a person to look at: the home, settings and upload pages at desktop
 * and phone widths (the home page also dark) into tests/browser/__screenshots__
 * (git-ignored), and the README's picture of the home page, docs/screenshot.webp.
 * Debian's Chromium (/usr/bin/chromium, or CHROMIUM_PATH) draws them.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import sharp from 'sharp'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { api, registerUser, type TestUser } from '../tests/support/api'
import { launchBrowser, newContext } from '../tests/support/browser'
import { seedUpload } from '../tests/support/seed'
import { ROOT, startServer, type RunningServer } from '../tests/support/server'
import { hydrated, picturePng } from '../tests/browser/helpers'

const OUT = join(ROOT, 'tests/browser/__screenshots__')
const README_PICTURE = join(ROOT, 'docs/screenshot.webp')

const LINKS = [
  ['https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'A song that never gives you up', ['music', 'classic'], 42, 3],
  ['https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC', 'Same song, now on Spotify', ['music'], 12, 9],
  ['https://vimeo.com/76979871', 'A short film about a long day', ['film'], 7, 1],
  ['https://www.tiktok.com/@someone/video/7106594312292453675', 'Dance move of the week', ['dance', 'fun'], 3, 8],
  ['https://x.com/someone/status/1580661436132757506', 'Hot take about tabs and spaces', ['tech'], 20, 20],
  ['https://example.org/articles/why-sourdough', 'Why everyone bakes sourdough now', ['food'], 5, 0],
  ['https://www.instagram.com/p/CkK9pJ1Lxyz/', 'Sunset over the harbour', ['photo'], 0, 0],
] as const

/** Hue, turn and text of each picture: the turns keep their perceptual hashes apart (no 409 duplicate). */
const PICTURES = [
  [20, 'none', 'Autumn in one gradient', 'art,autumn'],
  [160, 'flop', 'A calm sea at noon', 'photo,sea'],
  [320, 'flip', 'Neon sign after the rain', 'city,night'],
  [265, 'rotate', 'Sunrise in purple, drawn by a machine', 'art,colour'],
] as const

async function picture(hue: number, turn: typeof PICTURES[number][1]): Promise<Buffer> {
  const image = sharp(await picturePng(hue))
  if (turn === 'flop') image.flop()
  if (turn === 'flip') image.flip()
  if (turn === 'rotate') image.rotate(180)
  return image.png().toBuffer()
}

async function uploadPicture(server: RunningServer, user: TestUser, image: Buffer, description: string, tags: string): Promise<string> {
  const form = new FormData()
  form.set('upload_type', 'image')
  form.set('description', description)
  form.set('tags', tags)
  form.set('file', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'picture.png')
  const response = await api('/api/upload', { method: 'POST', body: form, token: user.token, baseURL: server.url })
  if (response.status !== 201) throw new Error(`Upload answered ${response.status}: ${JSON.stringify(response.body)}`)
  return response.body.upload.id as string
}

async function open(context: BrowserContext, path: string): Promise<Page> {
  const page = await context.newPage()
  const response = await page.goto(path)
  if (response?.status() !== 200) throw new Error(`${path} answered ${response?.status()}`)
  await hydrated(page)
  await page.waitForLoadState('networkidle')
  return page
}

/**
 * The whole page, every picture in it: pictures below the fold load as they are
 * scrolled near (docs/performance.md, "Pictures in the size of their slot"), so the page is scrolled through first.
 */
async function shoot(page: Page, name: string) {
  const path = join(OUT, `${name}.png`)
  const height = await page.evaluate(() => document.documentElement.scrollHeight)
  const step = page.viewportSize()?.height ?? 800
  for (let y = 0; y < height; y += step) {
    await page.evaluate(top => window.scrollTo(0, top), y)
    await page.waitForTimeout(50)
  }
  await page.evaluate(() => window.scrollTo(0, 0))
  await page.waitForLoadState('networkidle')
  await page.evaluate(() => Promise.all([...document.images].map(img => img.decode().catch(() => {}))))
  await page.screenshot({ path, fullPage: true })
  console.log(path)
}

async function signedIn(browser: Browser, server: RunningServer, user: TestUser, mobile: boolean) {
  const context = await newContext(browser, server.url, { mobile })
  await context.addCookies([{ name: 'auth-token', value: user.token, url: server.url, httpOnly: true, sameSite: 'Lax' }])
  return context
}

async function main() {
  mkdirSync(OUT, { recursive: true })
  const server = await startServer({}, { engine: 'sqlite' })
  let browser: Browser | undefined
  try {
    const user = await registerUser({}, server.url)
    for (const [url, description, tags, upvotes, downvotes] of LINKS) {
      await seedUpload(user, { uploadType: 'link', externalUrl: url, description, tags: [...tags], upvotes, downvotes }, server)
    }
    let uploadId = ''
    for (const [hue, turn, description, tags] of PICTURES) uploadId = await uploadPicture(server, user, await picture(hue, turn), description, tags)
    browser = await launchBrowser()

    for (const mobile of [false, true]) {
      const width = mobile ? 'mobile' : 'desktop'
      const guest = await newContext(browser, server.url, { mobile })
      const home = await open(guest, '/')
      await shoot(home, `home-${width}`)
      if (!mobile) {
        // The README's picture: the first screen only, small enough to keep in git.
        await sharp(await home.screenshot()).webp({ quality: 70 }).toFile(README_PICTURE)
        console.log(README_PICTURE)
      }
      await home.emulateMedia({ colorScheme: 'dark' })
      await shoot(home, `home-${width}-dark`)
      await guest.close()

      const owner = await signedIn(browser, server, user, mobile)
      await shoot(await open(owner, '/settings'), `settings-${width}`)
      await shoot(await open(owner, `/upload/${uploadId}`), `upload-${width}`)
      await owner.close()
    }
  }
  finally {
    await browser?.close()
    await server.stop()
  }
}

main().then(() => process.exit(0), (error: unknown) => {
  console.error(error)
  process.exit(1)
})
