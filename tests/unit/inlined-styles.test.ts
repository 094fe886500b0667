import { afterEach, describe, expect, it, vi } from 'vitest'
import { stylesheetMover } from '../../server/utils/inlined-styles'

const files: Record<string, string> = {
  '/_nuxt/entry.css': ':root{--a:1}body{margin:0}@media (max-width:600px){body{margin:1px}}',
  '/_nuxt/Card.css': '.card[data-v-1]{padding:4px}',
  '/_nuxt/Later.css': '.later[data-v-2]{color:red}.card[data-v-1]{padding:4px}',
}
const cssText = async (href: string) => files[href] ?? null
const link = (href: string) => `<link rel="stylesheet" href="${href}" crossorigin>`
const disabled = (href: string) => `<link rel="stylesheet" href="${href}" crossorigin type="text/x-inlined" disabled>`

describe('stylesheet links of a rendered page', () => {
  it('moves every link after the markup, disabled when its every rule is inline', async () => {
    const head = [
      `<meta charset="utf-8">${link('/_nuxt/entry.css')}\n${link('/_nuxt/Card.css')}\n${link('/_nuxt/Later.css')}\n<link rel="modulepreload" as="script" href="/_nuxt/a.js">`,
      `<style>:root{--a:1}body{margin:0}@media (max-width:600px){body{margin:1px}}</style><style>.card[data-v-1]{padding:4px}</style>`,
    ]
    const { head: out, later } = await stylesheetMover(cssText)(head)
    expect(out).toEqual(['<meta charset="utf-8"><link rel="modulepreload" as="script" href="/_nuxt/a.js">', head[1]])
    expect(later).toEqual([disabled('/_nuxt/entry.css'), disabled('/_nuxt/Card.css'), link('/_nuxt/Later.css')])
  })

  it('moves a later link when nothing of it is inline, and leaves a link it cannot read where it is', async () => {
    const head = [`${link('/_nuxt/entry.css')}${link('/_nuxt/Later.css')}${link('/_nuxt/missing.css')}`, `<style>${files['/_nuxt/entry.css']}</style>`]
    const { head: out, later } = await stylesheetMover(cssText)(head)
    expect(out).toEqual([link('/_nuxt/missing.css'), head[1]])
    expect(later).toEqual([disabled('/_nuxt/entry.css'), link('/_nuxt/Later.css')])
  })

  it('adds a disabled link to each other file of the build the page carries whole', async () => {
    const head = [link('/_nuxt/entry.css'), '<style>:root{--a:1}body{margin:0}@media (max-width:600px){body{margin:1px}}</style><style>.card[data-v-1]{padding:4px}</style>']
    const mover = stylesheetMover(cssText, ['/_nuxt/entry.css', '/_nuxt/Card.css', '/_nuxt/Later.css', '/_nuxt/missing.css'])
    for (let render = 0; render < 2; render++) {
      const { head: out, later } = await mover(head)
      expect(out).toEqual(['', head[1]])
      expect(later).toEqual([disabled('/_nuxt/entry.css'), disabled('/_nuxt/Card.css')])
    }
  })

  afterEach(() => {
    vi.useRealTimers()
  })

  it('reads a file that could not be read again a few seconds later, so one failed read does not keep every page\'s links blocking', async () => {
    vi.useFakeTimers()
    const failing = new Set(['/_nuxt/entry.css', '/_nuxt/Card.css'])
    const reads: string[] = []
    const flaky = async (href: string) => {
      reads.push(href)
      if (href === '/_nuxt/Card.css' && failing.delete(href)) throw new Error('read failed')
      return failing.delete(href) ? null : files[href] ?? null
    }
    const head = [link('/_nuxt/entry.css'), '<style>:root{--a:1}body{margin:0}@media (max-width:600px){body{margin:1px}}</style><style>.card[data-v-1]{padding:4px}</style>']
    const mover = stylesheetMover(flaky, ['/_nuxt/entry.css', '/_nuxt/Card.css'])
    expect(await mover(head)).toEqual({ head, later: [] })
    expect(await mover(head)).toEqual({ head, later: [] })
    expect(reads).toEqual(['/_nuxt/entry.css'])
    await vi.advanceTimersByTimeAsync(5_000)
    // The site's stylesheet reads now; the other file failed on its first read and is left out until its own retry.
    expect(await mover(head)).toEqual({ head: ['', head[1]], later: [disabled('/_nuxt/entry.css')] })
    await vi.advanceTimersByTimeAsync(5_000)
    expect(await mover(head)).toEqual({ head: ['', head[1]], later: [disabled('/_nuxt/entry.css'), disabled('/_nuxt/Card.css')] })
    expect(reads).toEqual(['/_nuxt/entry.css', '/_nuxt/entry.css', '/_nuxt/Card.css', '/_nuxt/Card.css'])
  })

  it('changes nothing when the first stylesheet, the site\'s own, is not all inline', async () => {
    for (const head of [
      [link('/_nuxt/entry.css'), link('/_nuxt/Card.css'), '<style>:root{--a:1}body{margin:0}@media (max-width:600px){body{margin:2px}}</style><style>.card[data-v-1]{padding:4px}</style>'],
      [`${link('/_nuxt/entry.css')}${link('/_nuxt/Card.css')}`],
      [`${link('/_nuxt/missing.css')}${link('/_nuxt/Card.css')}`, '<style>.card[data-v-1]{padding:4px}</style>'],
    ]) {
      expect(await stylesheetMover(cssText)(head)).toEqual({ head, later: [] })
    }
  })
})
