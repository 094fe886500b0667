import { randomUUID } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { launchBrowser } from '../support/browser'
import { randomImage } from '../support/images'
import { createUpload, goto, registerUser, watchErrors } from './helpers'
import type { TestUser } from '../support/api'
import { sharedServer } from '../support/shared-server'
import { IMAGE_JOB_SECONDS, IMAGE_QUEUE_WAIT_MS } from '../../server/services/media'

/**
 * "What a visitor feels": every picture is fetched in about the size of the
 * slot it fills. 12 uploads of 2000×1500 px (far above every derivative, so
 * a wrong pick shows), opened at a desktop and at phone sizes. Measured: each
 * picture the network delivered (decoded width) against its <img>'s rendered
 * width × devicePixelRatio (the smallest candidate that fills it, and never
 * more than 2× it), `sizes` against the rendered width, which pictures load
 * before any scrolling, and layout shifts inside the cards while the pictures
 * arrive.
 */
const ORIGINAL = { width: 2000, height: 1500 }
/** The derivatives in every `srcset`, smallest first, with their widths for a landscape original this large. */
const DERIVATIVES = [['small', 240], ['thumb', 480], ['medium', 960], ['display', 1600]] as const
const CANDIDATES = DERIVATIVES.map(([, width]) => width)
/** The `srcset` every picture of `id` carries. */
const srcsetOf = (id: string) => DERIVATIVES.map(([size, width]) => `/api/image/${id}?size=${size} ${width}w`).join(', ')
/** The derivatives made on first request (the thumbnail is made with the upload). */
const MADE_ON_REQUEST = ['small', 'medium', 'display']
/**
 * Longest a picture may take to load: the server's longest answer for a size made on
 * request (its wait for the image slot, then its job; docs/behaviour.md, Images), and
 * 10 s more for the thumbnail a refused picture falls back to. A wait shorter than the
 * server's own bound fails on a loaded machine while the server keeps its promise.
 */
const PICTURE_LOAD_MS = IMAGE_QUEUE_WAIT_MS + IMAGE_JOB_SECONDS * 1000 + 10_000

const VIEWPORTS = [
  { name: 'desktop', viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, isMobile: false },
  { name: 'phone at 2×', viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true },
  { name: 'phone at 3×', viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true },
] as const

interface Picture {
  id: string
  index: number
  inGrid: number
  srcset: string
  sizes: string
  sizesWidth: number | null
  loading: string | null
  fetchpriority: string | null
  decoding: string | null
  widthAttr: string | null
  heightAttr: string | null
  currentSrc: string
  naturalWidth: number
  width: number
  height: number
  top: number
}

/** Every upload picture of the page, with the width its `sizes` names at this viewport (measured on a probe element). */
function pictures(page: Page, selector: string): Promise<Picture[]> {
  return page.evaluate((selector) => {
    const sizesWidth = (sizes: string): number | null => {
      for (const entry of sizes.split(',').map(part => part.trim())) {
        let length = entry
        if (entry.startsWith('(')) {
          const end = entry.indexOf(')')
          if (!matchMedia(entry.slice(0, end + 1)).matches) continue
          length = entry.slice(end + 1).trim()
        }
        const probe = document.createElement('div')
        probe.style.cssText = `position:absolute;visibility:hidden;width:${length}`
        document.body.append(probe)
        const width = probe.getBoundingClientRect().width
        probe.remove()
        return width
      }
      return null
    }
    return [...document.querySelectorAll<HTMLImageElement>(selector)].map((img, index) => {
      const rect = img.getBoundingClientRect()
      const grid = img.closest('ul')
      const inGrid = grid ? [...grid.children].indexOf(img.closest('li')!) : index
      return {
        id: /\/api\/image\/([0-9a-f-]{36})/.exec(img.getAttribute('src') ?? '')?.[1] ?? '',
        index,
        inGrid,
        srcset: img.getAttribute('srcset') ?? '',
        sizes: img.getAttribute('sizes') ?? '',
        sizesWidth: sizesWidth(img.getAttribute('sizes') ?? ''),
        loading: img.getAttribute('loading'),
        fetchpriority: img.getAttribute('fetchpriority'),
        decoding: img.getAttribute('decoding'),
        widthAttr: img.getAttribute('width'),
        heightAttr: img.getAttribute('height'),
        currentSrc: img.currentSrc,
        naturalWidth: img.naturalWidth,
        width: rect.width,
        height: rect.height,
        top: rect.top + window.scrollY,
      }
    })
  }, selector)
}

/** Pictures the server sent, by address, with their decoded width. */
function networkLog(page: Page) {
  const delivered = new Map<string, Promise<number>>()
  page.on('response', (response) => {
    const url = new URL(response.url())
    if (!url.pathname.startsWith('/api/image/')) return
    if (response.status() !== 200) {
      delivered.set(url.pathname + url.search, Promise.resolve(-response.status()))
      return
    }
    delivered.set(url.pathname + url.search, response.body().then(async body => (await sharp(body).metadata()).width ?? 0))
  })
  return {
    /** Addresses fetched so far. */
    requested: () => new Set(delivered.keys()),
    async widths(): Promise<Map<string, number>> {
      const entries = await Promise.all([...delivered].map(async ([url, width]) => [url, await width] as const))
      return new Map(entries)
    },
  }
}

/**
 * Layout shifts whose moved nodes sit in an upload card (an image arriving
 * without a reserved box): each moved node with where it was and where it
 * went, and when (ms since the navigation began). `beforeCut`: the node
 * comes before the first card's vote legend icon in the page, or holds it
 * (the part of the page the cut test below sends first).
 *
 * `__frames`: each frame the page rendered until the third after parsing
 * ended, and whether the parser was still at work when it was drawn (a
 * requestAnimationFrame callback runs in the frame's rendering step, where
 * the parser cannot run, so the frame shows the document as it stands then).
 * A frame's time is read in its callback, not taken from its argument: the
 * shift a frame reports is timed at its layout, after the callback, and on a
 * busy main thread the next frame's argument can be earlier than that.
 *
 * `__cls`: the sum of every layout shift of the page not caused by the
 * visitor's input (never less than the CLS Lighthouse reports, its worst
 * window of shifts).
 */
const WATCH_SHIFTS = `
  window.__cardShifts = [];
  window.__frames = [];
  window.__cls = 0;
  const frame = () => {
    window.__frames.push({ time: performance.now(), parsing: document.readyState === 'loading' });
    if (window.__frames.filter(f => !f.parsing).length < 3) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (!entry.hadRecentInput) window.__cls += entry.value;
      for (const source of entry.sources ?? []) {
        const node = source.node;
        const element = node && (node.nodeType === 1 ? node : node.parentElement);
        if (!element || !element.closest('[data-testid=upload-card], [data-testid=upload-detail]')) continue;
        const box = rect => [rect.x, rect.y, rect.width, rect.height].map(n => Math.round(n * 100) / 100);
        const cut = document.querySelector('[data-testid=upload-card] .legend-yes svg');
        const beforeCut = !!cut && (element === cut || !!(element.compareDocumentPosition(cut) & (Node.DOCUMENT_POSITION_FOLLOWING | Node.DOCUMENT_POSITION_CONTAINED_BY)));
        window.__cardShifts.push({ at: entry.startTime, value: entry.value, node: element.outerHTML.slice(0, 120), from: box(source.previousRect), to: box(source.currentRect), beforeCut });
      }
    }
  }).observe({ type: 'layout-shift', buffered: true });
`

interface CardShift { at: number, value: number, node: string, from: number[], to: number[], beforeCut: boolean }
interface Frame { time: number, parsing: boolean }

/**
 * The shifts a visitor can see: a node that moved or changed size by a CSS
 * pixel or more. Chromium also reports moves of a fraction of a pixel (a
 * fractional column width snapped again), which nobody sees.
 *
 * `whileParsing`: also the shifts from a frame drawn before the whole page
 * was parsed. Chromium paints a page while its HTML still arrives or is still
 * being parsed, and where the parser stops for a frame is chance: a tag chip
 * cut after its first bytes is drawn small and wraps when its name follows; a
 * loaded machine draws a favourite button with its heart and without its
 * count. Such a shift is reported in the next frame, which can come after
 * parsing ended, so it is told by the frame before it, not by its time. The
 * pictures' checks leave those out (their own test below cuts the page where
 * a card's markup could move).
 */
async function visibleCardShifts(page: Page, { whileParsing = false } = {}): Promise<CardShift[]> {
  const { shifts, frames } = await page.evaluate(() => ({
    shifts: (window as unknown as { __cardShifts: CardShift[] }).__cardShifts,
    frames: (window as unknown as { __frames: Frame[] }).__frames,
  }))
  // The frames were watched: a page whose frames went unrecorded would leave every shift out.
  expect(frames.filter(frame => !frame.parsing).length).toBe(3)
  /** Whether the frame drawn before the one that reported `shift` showed a page still being parsed. */
  const afterPartialFrame = (shift: CardShift) => {
    const index = frames.findLastIndex(frame => frame.time <= shift.at)
    return index <= 0 || frames[index - 1]!.parsing
  }
  return shifts
    .filter(shift => whileParsing || !afterPartialFrame(shift))
    .filter(shift => shift.from.some((value, i) => Math.abs(value - shift.to[i]!) >= 1))
}

async function openAt(browser: Browser, size: typeof VIEWPORTS[number]): Promise<{ context: BrowserContext, page: Page }> {
  const context = await browser.newContext({
    baseURL: sharedServer().baseURL,
    viewport: size.viewport,
    deviceScaleFactor: size.deviceScaleFactor,
    isMobile: size.isMobile,
    hasTouch: size.isMobile,
  })
  return { context, page: await watched(context) }
}

/**
 * A page of `context` that records its layout shifts. Its every wait (a page's load
 * event, the network settling, a picture complete) may wait on a picture, so each
 * lasts PICTURE_LOAD_MS unless it says otherwise.
 */
async function watched(context: BrowserContext): Promise<Page> {
  context.setDefaultTimeout(PICTURE_LOAD_MS)
  await context.addInitScript(WATCH_SHIFTS)
  return context.newPage()
}

/** Scrolls down the whole page in screen steps, so every lazy picture comes near and loads. */
async function scrollThrough(page: Page) {
  const step = page.viewportSize()!.height
  // The height is read at every step: a page that grows as it loads (a list's next rows) is
  // scrolled to its real end, so no lazy picture is left below the last step, never asked for.
  for (let y = 0; y <= await page.evaluate(() => document.documentElement.scrollHeight); y += step) {
    await page.evaluate(top => window.scrollTo(0, top), y)
    await page.waitForTimeout(60)
  }
  // Pictures off to the side in a card row that scrolls sideways (phones) stay unloaded until that row scrolls.
  const unloaded = () => page.evaluate(() => [...document.querySelectorAll('img')]
    .filter(img => !img.complete && img.getBoundingClientRect().left < window.innerWidth)
    .map(img => `${img.currentSrc || img.src} (${img.loading || 'eager'}, ${Math.round(img.getBoundingClientRect().top)} px from the screen's top)`))
  // The pictures still waited for are named when the wait runs out.
  await expect.poll(unloaded, { timeout: PICTURE_LOAD_MS, interval: 250 }).toEqual([])
  await page.waitForLoadState('networkidle')
}

/**
 * The picture the network delivered for `picture` is the smallest candidate
 * that fills its slot's device pixels (or the largest, when none does), and
 * at most 2× those pixels. A picture shown in two slots (a card in "Most
 * recent" and in the feed) is fetched once, for the larger slot.
 */
function expectSized(picture: Picture, all: Picture[], widths: Map<string, number>, dpr: number) {
  const path = new URL(picture.currentSrc).pathname + new URL(picture.currentSrc).search
  const width = widths.get(path)
  expect(width, `${path} was fetched`).toBeDefined()
  const slot = Math.max(...all.filter(p => p.currentSrc === picture.currentSrc).map(p => p.width)) * dpr
  const fills = CANDIDATES.find(candidate => candidate >= Math.floor(slot)) ?? CANDIDATES.at(-1)!
  expect(width, `${path}: ${width} px for a slot of ${Math.round(slot)} device px`).toBe(fills)
  expect(width, `${path}: ${width} px for a slot of ${Math.round(slot)} device px`).toBeLessThanOrEqual(2 * slot)
}

// A test waits for the pictures of up to five pages; it has room for three of those waits to take PICTURE_LOAD_MS.
describe('pictures sized to their slots', { timeout: 3 * PICTURE_LOAD_MS + 60_000 }, () => {
  let browser: Browser
  let user: TestUser
  const tag = `slots${randomUUID().slice(0, 8)}`
  const ids: string[] = []

  beforeAll(async () => {
    browser = await launchBrowser()
    user = await registerUser()
    for (let i = 0; i < 12; i++) {
      ids.push(await createUpload(user, { image: await randomImage('png', ORIGINAL), description: `Picture ${i + 1} of a slot test`, tags: tag }))
    }
  }, 120_000)
  afterAll(() => browser?.close())

  it('home page on a phone before any small, medium or display size exists: a picture the busy image queue refuses (503) falls back to its thumbnail', async () => {
    const { context, page } = await openAt(browser, VIEWPORTS[1])
    const log = networkLog(page)
    expect((await goto(page, '/'))?.status()).toBe(200)
    await page.waitForLoadState('networkidle')
    await scrollThrough(page)
    const shown = (await pictures(page, '[data-testid=upload-card] img')).filter(p => ids.includes(p.id) && p.currentSrc)
    expect(shown.length).toBeGreaterThanOrEqual(12)
    const widths = await log.widths()
    for (const picture of shown) {
      // Every picture shows: the size it asked for, or the thumbnail after that size was refused.
      expect(picture.naturalWidth, picture.currentSrc).toBeGreaterThan(0)
      const refused = MADE_ON_REQUEST.some(size => widths.get(`/api/image/${picture.id}?size=${size}`) === -503)
      if (refused) expect(picture.currentSrc).toMatch(/\?size=thumb$/)
    }
    await context.close()
  })

  it('user page on a phone: its grid, in view at once, hydrates when a picture fails or the visitor acts, not while they only look', async () => {
    /** How many elements under `selector` have Vue's event handlers (its `_vei` symbol): none before their component hydrates. */
    const withHandlers = (page: Page, selector: string) => page.evaluate(selector => [...document.querySelectorAll(selector)]
      .filter(element => Object.getOwnPropertySymbols(element).some(symbol => symbol.description === '_vei')).length, selector)
    const { context, page } = await openAt(browser, VIEWPORTS[1])
    const errors = watchErrors(page)
    expect((await goto(page, `/user/${user.username}`))?.status()).toBe(200)
    await page.waitForLoadState('networkidle')
    expect(await withHandlers(page, 'header *')).toBeGreaterThan(0)
    expect(await withHandlers(page, '.upload-grid *')).toBe(0)
    // A finger or a pointer on the page: the grid in view hydrates.
    await page.mouse.move(20, 20)
    await expect.poll(() => withHandlers(page, '.upload-grid img')).toBeGreaterThan(0)

    // Every size but the thumbnail refused: the pictures that fail hydrate the grid with no input, and show the thumbnail.
    const refused = await context.newPage()
    await refused.route(url => /[?&]size=(small|medium|display)\b/.test(url.search), route => route.fulfill({ status: 503, body: '' }))
    expect((await goto(refused, `/user/${user.username}`))?.status()).toBe(200)
    await refused.waitForFunction(() => {
      const loaded = [...document.querySelectorAll<HTMLImageElement>('.upload-grid img')].filter(image => image.loading !== 'lazy')
      return loaded.length > 0 && loaded.every(image => image.complete && image.naturalWidth > 0 && image.currentSrc.endsWith('?size=thumb'))
    }, null, { timeout: 10_000 })
    expect(errors).toEqual([])
    await context.close()
  })

  for (const size of VIEWPORTS) {
    it(`home page, ${size.name}: the size the slot needs, the first row first, the rest when scrolled near, nothing shifts`, async () => {
      // The derivatives exist (made one at a time), as on a site that has shown them once.
      for (const id of ids) {
        for (const size of MADE_ON_REQUEST) expect((await fetch(new URL(`/api/image/${id}?size=${size}`, sharedServer().baseURL))).status).toBe(200)
      }
      const { context, page } = await openAt(browser, size)
      const errors = watchErrors(page)
      const log = networkLog(page)
      expect((await goto(page, '/'))?.status()).toBe(200)
      await page.waitForLoadState('networkidle')
      const viewportHeight = size.viewport.height

      const before = await pictures(page, '[data-testid=upload-card] img')
      // The 12 new uploads lead the feed.
      expect(before.filter(p => ids.includes(p.id)).length).toBeGreaterThanOrEqual(12)
      for (const picture of before) {
        expect(picture.srcset).toBe(srcsetOf(picture.id))
        expect(picture.decoding).toBe('async')
        // The box is reserved before the picture arrives: 4:3 attributes, and the slot has its height already.
        expect([picture.widthAttr, picture.heightAttr]).toEqual(['480', '360'])
        expect(picture.height).toBeGreaterThan(0)
        // `sizes` names the slot's rendered width (to a few pixels: 100vw counts the scrollbar).
        expect(Math.abs(picture.sizesWidth! - picture.width), `${picture.sizes} vs ${picture.width}`).toBeLessThanOrEqual(Math.max(20, picture.width * 0.12))
      }
      // The page's first picture: before everything else, never lazy.
      expect(before[0]!.fetchpriority).toBe('high')
      expect(before[0]!.loading).toBeNull()
      expect(before.slice(1).every(p => p.fetchpriority === null)).toBe(true)
      // Beyond each grid's first row (4 cards), every picture waits to be scrolled near.
      for (const picture of before.filter(p => p.inGrid >= 4)) expect(picture.loading).toBe('lazy')
      // Far below the fold (more than Chromium's 2500 px lazy-load margin): not fetched before scrolling.
      const requested = log.requested()
      const far = before.filter(p => p.loading === 'lazy' && p.top > viewportHeight + 3000)
      for (const picture of far) {
        expect([...requested].some(url => url.includes(picture.id)), `${picture.id} at ${picture.top} px`).toBe(false)
      }
      if (size.isMobile) expect(far.length).toBeGreaterThan(0)

      await scrollThrough(page)
      const after = await pictures(page, '[data-testid=upload-card] img')
      const widths = await log.widths()
      expect(after.map(p => [p.id, Math.round(p.width), Math.round(p.height)])).toEqual(before.map(p => [p.id, Math.round(p.width), Math.round(p.height)]))
      const loaded = after.filter(p => ids.includes(p.id) && p.currentSrc)
      expect(loaded.length).toBeGreaterThanOrEqual(12)
      for (const picture of loaded) expectSized(picture, after, widths, size.deviceScaleFactor)
      // Every picture fetched belongs to a card and is one of its candidates (no stray originals).
      for (const url of widths.keys()) expect(after.some(p => p.srcset.split(', ').some(candidate => candidate.startsWith(`${url} `))), url).toBe(true)
      expect(await visibleCardShifts(page)).toEqual([])
      expect(errors).toEqual([])
      await context.close()
    })
  }

  it('a page painted while its HTML arrives: a card cut after its vote legend\'s icon moves nothing when the rest comes', async () => {
    // A stand-in for a slow network on 127.0.0.1: the page's HTML up to the end of the first card's icon, the rest 400 ms later.
    const origin = sharedServer().baseURL
    const proxy = createServer(async (req, res) => {
      const answer = await fetch(new URL(req.url!, origin), { headers: { cookie: req.headers.cookie ?? '', accept: req.headers.accept ?? '*/*' } })
      const type = answer.headers.get('content-type') ?? ''
      res.writeHead(answer.status, { 'content-type': type, 'cache-control': 'no-store' })
      const body = await answer.text()
      if (!type.startsWith('text/html')) return res.end(body)
      const cut = body.indexOf('</svg>', body.indexOf('class="legend-yes"')) + '</svg>'.length
      expect(cut).toBeGreaterThan('</svg>'.length)
      res.write(body.slice(0, cut))
      setTimeout(() => res.end(body.slice(cut)), 400)
    })
    await new Promise<void>(resolve => proxy.listen(0, '127.0.0.1', resolve))
    try {
      const context = await browser.newContext({ baseURL: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, viewport: VIEWPORTS[0].viewport })
      const page = await watched(context)
      expect((await goto(page, `/tags/${tag}`))?.status()).toBe(200)
      await page.waitForLoadState('networkidle')
      const [first] = await page.$$eval('[data-testid=upload-card] .legend-yes svg', icons => icons.map(icon => icon.getBoundingClientRect().top))
      // The first row is in view (a shift out of view is not reported), and nothing sent before the
      // cut moved. What comes after it may itself be split again by chance (a loaded machine's parser
      // paints a favourite button before its heart and count), as visibleCardShifts says.
      expect(first).toBeLessThan(VIEWPORTS[0].viewport.height)
      expect((await visibleCardShifts(page, { whileParsing: true })).filter(shift => shift.beforeCut)).toEqual([])
      await context.close()
    }
    finally {
      proxy.close()
    }
  })

  it('home and an upload page reserve every picture\'s box: the layout shifts add up to less than 0.01, desktop and phone', async () => {
    for (const size of [VIEWPORTS[0], VIEWPORTS[1]]) {
      for (const path of ['/', `/upload/${ids[0]}`]) {
        const { context, page } = await openAt(browser, size)
        expect((await goto(page, path))?.status()).toBe(200)
        await page.waitForLoadState('networkidle')
        await page.waitForFunction(() => [...document.images].every(image => image.complete || image.loading === 'lazy'))
        // Let a late paint settle, then read the page's cumulative layout shift.
        await page.waitForTimeout(300)
        const cls = await page.evaluate(() => (window as unknown as { __cls: number }).__cls)
        expect(cls, `${path} at ${size.name}`).toBeLessThan(0.01)
        if (path !== '/') {
          const [picture] = await pictures(page, '[data-testid=upload-image]')
          // The full object's size, so the box is there before the picture.
          expect([picture!.widthAttr, picture!.heightAttr]).toEqual([String(ORIGINAL.width), String(ORIGINAL.height)])
        }
        await context.close()
      }
    }
  })

  // Ten pages, each in a context of its own (an empty cache, so every picture is fetched): one test per size.
  for (const size of [VIEWPORTS[0], VIEWPORTS[2]]) {
    it(`tag page, user page, my uploads, an upload page and vote mode, ${size.name}: the same rules`, async () => {
      for (const path of [`/tags/${tag}`, `/user/${user.username}`, '/my-uploads']) {
        const { context, page } = await openAt(browser, size)
        await context.addCookies([{ name: 'auth-token', value: user.token, url: sharedServer().baseURL, httpOnly: true, sameSite: 'Lax' }])
        const log = networkLog(page)
        expect((await goto(page, path))?.status()).toBe(200)
        await scrollThrough(page)
        const shown = await pictures(page, '[data-testid=upload-card] img')
        expect(shown.map(p => p.id).sort()).toEqual([...ids].sort())
        expect(shown[0]!.fetchpriority).toBe('high')
        expect(shown[0]!.loading).toBeNull()
        for (const picture of shown.slice(4)) expect(picture.loading).toBe('lazy')
        const widths = await log.widths()
        for (const picture of shown) {
          expect([picture.widthAttr, picture.heightAttr]).toEqual(['480', '360'])
          expectSized(picture, shown, widths, size.deviceScaleFactor)
        }
        expect(await visibleCardShifts(page)).toEqual([])
        await context.close()
      }

      const { context, page } = await openAt(browser, size)
      const log = networkLog(page)
      expect((await goto(page, `/upload/${ids[0]}`))?.status()).toBe(200)
      await page.waitForLoadState('networkidle')
      await page.waitForFunction(() => (document.querySelector('[data-testid=upload-image]') as HTMLImageElement | null)?.complete)
      const [picture] = await pictures(page, '[data-testid=upload-image]')
      expect(picture!.fetchpriority).toBe('high')
      expect(picture!.loading).toBeNull()
      expect(picture!.srcset).toBe(srcsetOf(ids[0]!))
      expect(Math.abs(picture!.sizesWidth! - picture!.width), `${picture!.sizes} vs ${picture!.width}`).toBeLessThanOrEqual(Math.max(20, picture!.width * 0.12))
      expectSized(picture!, [picture!], await log.widths(), size.deviceScaleFactor)
      // The head asks for it first, with the same candidates and slot: the one picture of the upload fetched.
      const preload = await page.evaluate(() => [...document.querySelectorAll('link[rel=preload][as=image]')].map(link => ({
        srcset: link.getAttribute('imagesrcset'), sizes: link.getAttribute('imagesizes'), fetchpriority: link.getAttribute('fetchpriority'),
      })))
      expect(preload).toEqual([{ srcset: picture!.srcset, sizes: picture!.sizes, fetchpriority: 'high' }])
      expect([...log.requested()].filter(url => url.startsWith(`/api/image/${ids[0]}`))).toEqual([new URL(picture!.currentSrc).pathname + new URL(picture!.currentSrc).search])

      // Vote mode (signed in, so the owner is offered the newest upload: one of these) sizes its picture to its column too.
      await context.addCookies([{ name: 'auth-token', value: user.token, url: sharedServer().baseURL, httpOnly: true, sameSite: 'Lax' }])
      expect((await goto(page, '/vote'))?.status()).toBe(200)
      await page.waitForSelector('[data-testid=vote-mode-upload] img')
      await page.waitForFunction(() => (document.querySelector('[data-testid=vote-mode-upload] img') as HTMLImageElement).complete)
      const [voting] = await pictures(page, '[data-testid=vote-mode-upload] img')
      expect(ids).toContain(voting!.id)
      expect(voting!.srcset).toBe(srcsetOf(voting!.id))
      expect(voting!.sizes).not.toBe('')
      expect(voting!.naturalWidth).toBeGreaterThan(0)
      await context.close()
    })
  }
})
