import type { Page } from 'playwright-core'

/**
 * Accessibility checks run inside the page on what Chromium rendered: names of
 * controls, buttons, links and images, heading order, `lang`, unique ids, ARIA
 * references, and the contrast of every visible text against its real background.
 * Answers a list of problems (empty when the page passes), each naming the element.
 */
export function auditPage(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = []
    const describe = (el: Element) => {
      const id = el.id ? `#${el.id}` : ''
      const testid = el.getAttribute('data-testid') ? `[data-testid=${el.getAttribute('data-testid')}]` : ''
      const cls = typeof el.className === 'string' && el.className.trim() ? `.${el.className.trim().split(/\s+/).join('.')}` : ''
      const text = (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40)
      return `<${el.tagName.toLowerCase()}${id}${testid}${cls}>${text ? ` "${text}"` : ''}`
    }
    const hiddenFromAll = (el: Element) => Boolean(el.closest('[aria-hidden="true"], [inert]')) || !(el as HTMLElement).checkVisibility?.()
    /** Text a screen reader reads for a subtree: aria-hidden parts skipped, image alts included. */
    const textOf = (node: Node): string => {
      if (node.nodeType === Node.TEXT_NODE) return node.textContent ?? ''
      if (!(node instanceof Element)) return ''
      if (node.getAttribute('aria-hidden') === 'true') return ''
      if (node instanceof HTMLElement && getComputedStyle(node).display === 'none') return ''
      if (node.getAttribute('aria-label')) return node.getAttribute('aria-label')!
      if (node instanceof HTMLImageElement) return node.alt
      if (node.tagName.toLowerCase() === 'svg') return node.querySelector('title')?.textContent ?? ''
      return [...node.childNodes].map(textOf).join(' ')
    }
    const byIds = (ids: string) => ids.split(/\s+/).filter(Boolean).map(id => document.getElementById(id))
    /** The accessible name, by the usual precedence (placeholder deliberately not counted). */
    const nameOf = (el: Element): string => {
      const labelledby = el.getAttribute('aria-labelledby')
      if (labelledby) return byIds(labelledby).map(ref => (ref ? textOf(ref) : '')).join(' ').trim()
      const label = el.getAttribute('aria-label')?.trim()
      if (label) return label
      const labels = (el as HTMLInputElement).labels
      if (labels?.length) return [...labels].map(l => textOf(l)).join(' ').trim()
      if (el instanceof HTMLInputElement && ['submit', 'button', 'reset'].includes(el.type)) return el.value.trim()
      if (el instanceof HTMLImageElement) return el.alt.trim()
      const tag = el.tagName.toLowerCase()
      if (tag === 'button' || tag === 'a' || tag === 'summary' || ['button', 'link', 'tab', 'menuitem'].includes(el.getAttribute('role') ?? '')) {
        const text = textOf(el).trim()
        if (text) return text
      }
      return el.getAttribute('title')?.trim() ?? ''
    }

    if (!document.documentElement.lang) problems.push('<html> has no lang')
    if (!document.title.trim()) problems.push('the page has no <title>')

    for (const el of document.querySelectorAll('input:not([type=hidden]), select, textarea')) {
      if (hiddenFromAll(el)) continue
      if (!nameOf(el)) problems.push(`form control without a label: ${describe(el)}`)
    }
    for (const el of document.querySelectorAll('button, [role=button], input[type=submit], input[type=button], a[href], summary, [role=link], [role=tab]')) {
      if (hiddenFromAll(el)) continue
      if (!nameOf(el)) problems.push(`${el.tagName.toLowerCase() === 'a' ? 'link' : 'button'} without an accessible name: ${describe(el)}`)
    }
    // Label in name (WCAG 2.5.3, axe's label-content-name-mismatch): a control named by aria-label
    // whose visible text is not part of that name cannot be spoken to by what one sees.
    const words = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim()
    for (const el of document.querySelectorAll('button[aria-label], a[href][aria-label], [role=button][aria-label], [role=link][aria-label]')) {
      if (hiddenFromAll(el)) continue
      const visible = words((el as HTMLElement).innerText ?? '')
      if (visible && !words(el.getAttribute('aria-label')!).includes(visible)) problems.push(`accessible name "${el.getAttribute('aria-label')}" does not contain the visible text "${visible}": ${describe(el)}`)
    }
    for (const el of document.querySelectorAll('img')) {
      if (!el.hasAttribute('alt')) problems.push(`image without alt: ${describe(el)} src=${el.getAttribute('src')?.slice(0, 60)}`)
    }
    for (const el of document.querySelectorAll('[role=img], iframe, [role=progressbar], [role=dialog], dialog')) {
      if (hiddenFromAll(el)) continue
      if (!(nameOf(el) || el.getAttribute('title'))) problems.push(`${el.tagName.toLowerCase()} without an accessible name: ${describe(el)}`)
    }
    for (const el of document.querySelectorAll('svg')) {
      if (el.closest('[aria-hidden="true"]') || el.getAttribute('role') === 'img' || el.querySelector('title')) continue
      if (!el.closest('button, a, label, [role=img]')) continue
      problems.push(`svg inside a control is neither aria-hidden nor labelled: ${describe(el.parentElement!)}`)
    }

    // Headings: one h1, first, and no level skipped on the way down.
    const headings = [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')].filter(h => !hiddenFromAll(h))
    const h1s = headings.filter(h => h.tagName === 'H1')
    if (h1s.length !== 1) problems.push(`expected one <h1>, found ${h1s.length}: ${h1s.map(describe).join(', ')}`)
    if (headings[0] && headings[0].tagName !== 'H1') problems.push(`the first heading is not <h1>: ${describe(headings[0])}`)
    headings.forEach((h, i) => {
      const level = Number(h.tagName[1])
      const previous = i ? Number(headings[i - 1]!.tagName[1]) : 1
      if (level > previous + 1) problems.push(`heading level skipped (h${previous} → h${level}): ${describe(h)}`)
    })
    if (document.querySelectorAll('main, [role=main]').length !== 1) problems.push(`expected one <main>, found ${document.querySelectorAll('main, [role=main]').length}`)

    // Ids unique; ARIA references point at something.
    const seen = new Map<string, number>()
    for (const el of document.querySelectorAll('[id]')) seen.set(el.id, (seen.get(el.id) ?? 0) + 1)
    for (const [id, count] of seen) if (count > 1) problems.push(`id "${id}" is used ${count} times`)
    for (const attribute of ['aria-labelledby', 'aria-describedby', 'aria-controls']) {
      for (const el of document.querySelectorAll(`[${attribute}]`)) {
        const missing = el.getAttribute(attribute)!.split(/\s+/).filter(id => id && !document.getElementById(id))
        if (missing.length) problems.push(`${attribute} points at missing id(s) ${missing.join(' ')}: ${describe(el)}`)
      }
    }
    for (const el of document.querySelectorAll('[tabindex]')) {
      if (Number(el.getAttribute('tabindex')) > 0) problems.push(`positive tabindex: ${describe(el)}`)
    }

    // Contrast (WCAG 2 AA): every visible text node against the colours painted beneath it.
    type Rgba = [number, number, number, number]
    const parse = (value: string): Rgba | null => {
      const m = value.match(/rgba?\(([\d.]+)[, ]+([\d.]+)[, ]+([\d.]+)(?:[,/ ]+([\d.]+%?))?\)/)
      if (!m) return null
      const alpha = m[4] === undefined ? 1 : m[4].endsWith('%') ? Number.parseFloat(m[4]) / 100 : Number(m[4])
      return [Number(m[1]), Number(m[2]), Number(m[3]), alpha]
    }
    const over = (top: Rgba, bottom: Rgba): Rgba => {
      const a = top[3] + bottom[3] * (1 - top[3])
      if (a === 0) return [0, 0, 0, 0]
      const mix = (i: number) => (top[i]! * top[3] + bottom[i]! * bottom[3] * (1 - top[3])) / a
      return [mix(0), mix(1), mix(2), a]
    }
    const luminance = ([r, g, b]: Rgba) => {
      const channel = (c: number) => {
        const s = c / 255
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
      }
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
    }
    const canvas: Rgba = getComputedStyle(document.documentElement).colorScheme.includes('dark') && matchMedia('(prefers-color-scheme: dark)').matches ? [18, 18, 18, 1] : [255, 255, 255, 1]
    /** The background under `el`, or null when an image or gradient makes it unknowable here. */
    const backgroundOf = (el: Element): Rgba | null => {
      const layers: Rgba[] = []
      for (let node: Element | null = el; node; node = node.parentElement) {
        const style = getComputedStyle(node)
        if (style.backgroundImage !== 'none') return null
        const colour = parse(style.backgroundColor)
        if (colour && colour[3] > 0) layers.push(colour)
        if (colour && colour[3] >= 1) break
      }
      return layers.reverse().reduce<Rgba>((below, layer) => over(layer, below), canvas)
    }
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
    const checked = new Set<Element>()
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement
      if (!el || checked.has(el) || !node.textContent?.trim()) continue
      checked.add(el)
      if (hiddenFromAll(el) || el.closest('option, script, style, noscript, iframe')) continue
      if (el.closest(':disabled, [aria-disabled="true"]')) continue // WCAG exempts inactive controls
      const rect = el.getBoundingClientRect()
      if (rect.width <= 1 || rect.height <= 1) continue // visually hidden, read by screen readers only
      let opacity = 1
      for (let n: Element | null = el; n; n = n.parentElement) opacity *= Number(getComputedStyle(n).opacity)
      const style = getComputedStyle(el)
      const colour = parse(style.color)
      const background = backgroundOf(el)
      if (!colour || !background || style.webkitTextFillColor === 'transparent' || colour[3] === 0) continue
      const fg = over([colour[0], colour[1], colour[2], colour[3] * opacity], background)
      const [l1, l2] = [luminance(fg), luminance(background)].sort((a, b) => b - a) as [number, number]
      const ratio = (l1 + 0.05) / (l2 + 0.05)
      const size = Number.parseFloat(style.fontSize)
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700)
      const needed = large ? 3 : 4.5
      if (ratio < needed) problems.push(`contrast ${ratio.toFixed(2)}:1 < ${needed}:1 for ${describe(el)} (${style.color} on rgb(${background.slice(0, 3).map(Math.round).join(', ')}))`)
    }
    return problems
  })
}

/**
 * Presses Tab through the page (up to `limit` stops) and answers the stops whose
 * focus is not visible: nothing of the element or its two nearest ancestors
 * (outline, box-shadow, border or background colour) differs from how it looks
 * unfocused. A wrapper's :focus-within ring counts; so does a label's ring
 * around a visually hidden radio.
 */
export async function invisibleFocus(page: Page, limit = 80): Promise<{ stops: string[], invisible: string[] }> {
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur()
    window.scrollTo(0, 0)
    for (const el of document.querySelectorAll('[data-focus-stop]')) el.removeAttribute('data-focus-stop')
  })
  const looks = new Map<number, string>()
  const stops: string[] = []
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab')
    const stop = await page.evaluate((index) => {
      const el = document.activeElement
      if (!el || el === document.body || el.hasAttribute('data-focus-stop')) return null
      el.setAttribute('data-focus-stop', String(index))
      const chain = [el, el.parentElement, el.parentElement?.parentElement].filter(Boolean) as Element[]
      const look = chain.map((e) => {
        const s = getComputedStyle(e)
        return [s.outlineStyle, s.outlineWidth, s.outlineColor, s.boxShadow, s.borderColor, s.backgroundColor].join('|')
      }).join(' / ')
      const name = `<${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}> "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 30)}"`
      return { name, look }
    }, i)
    if (!stop) break
    stops.push(stop.name)
    looks.set(i, stop.look)
  }
  // The same elements, unfocused, for comparison.
  const unfocused = await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur()
    return [...document.querySelectorAll('[data-focus-stop]')].map((el) => {
      const chain = [el, el.parentElement, el.parentElement?.parentElement].filter(Boolean) as Element[]
      return [Number(el.getAttribute('data-focus-stop')), chain.map((e) => {
        const s = getComputedStyle(e)
        return [s.outlineStyle, s.outlineWidth, s.outlineColor, s.boxShadow, s.borderColor, s.backgroundColor].join('|')
      }).join(' / ')] as const
    })
  })
  const invisible = unfocused.filter(([index, look]) => looks.get(index) === look).map(([index]) => stops[index]!)
  return { stops, invisible }
}

/**
 * How far the page is wider than the screen, and the elements that stick out
 * first (their parent still fits), unless a scrolling box (overflow-x auto or
 * scroll, as the home page's card row) holds them.
 */
export function overflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth
    const problems: string[] = []
    const scrollWidth = document.documentElement.scrollWidth
    if (scrollWidth <= width) return problems
    problems.push(`the page is ${scrollWidth} px wide on a ${width} px screen`)
    const describe = (el: Element) => {
      const id = el.id ? `#${el.id}` : ''
      const cls = typeof el.className === 'string' && el.className.trim() ? `.${el.className.trim().split(/\s+/).join('.')}` : ''
      return `<${el.tagName.toLowerCase()}${id}${cls}> "${(el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40)}"`
    }
    const scrolls = (el: Element | null): boolean => {
      for (let node = el; node && node !== document.body; node = node.parentElement) {
        if (['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(node).overflowX)) return true
      }
      return false
    }
    const sticksOut = (el: Element) => el.getBoundingClientRect().right > width + 0.5
    for (const el of document.body.querySelectorAll('*')) {
      if (!sticksOut(el) || (el.parentElement && sticksOut(el.parentElement)) || scrolls(el.parentElement)) continue
      problems.push(`${describe(el)} reaches ${Math.round(el.getBoundingClientRect().right)} px`)
    }
    if (problems.length === 1) {
      // Nothing sticks out on its own: a positioned element escaping a scrolling box that is not its containing block?
      const positioned = [...document.body.querySelectorAll('*')].filter(el => sticksOut(el) && ['absolute', 'fixed'].includes(getComputedStyle(el).position))
      for (const el of positioned.slice(0, 3)) problems.push(`${describe(el)} (position: ${getComputedStyle(el).position}) reaches ${Math.round(el.getBoundingClientRect().right)} px`)
    }
    return problems
  })
}

/**
 * Text fields, text areas and selects shown without the site's field style
 * (.input, .textarea, .select in assets/css/main.css): the browser's bare
 * control, square and grey in the dark theme. A `.bare` field is drawn inside
 * a box that has the style (the tag input's chips and text).
 */
export function unstyledFields(page: Page): Promise<string[]> {
  return page.$$eval('input:not([type=checkbox], [type=radio], [type=file], [type=hidden]), textarea, select', elements => elements
    .filter(el => el.getClientRects().length > 0 && !el.matches('.input, .textarea, .select, .bare'))
    .map(el => `<${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.getAttribute('name') ? ` name=${el.getAttribute('name')}` : ''}>`))
}
