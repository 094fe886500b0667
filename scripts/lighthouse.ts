/**
 * `npm run lighthouse` (after `npm run build`): Lighthouse's mobile audit of the
 * home page, an upload page, vote mode and a user page, and the home page's
 * first-load JavaScript as brotli. Starts the built server on 127.0.0.1 with a
 * fresh SQLite data dir, seeds it through the API (a user, 16 pictures, 4 links,
 * some votes), runs each page `LIGHTHOUSE_RUNS` times (default 5; the median score
 * counts: one run on a shared machine swings by several points, and Lighthouse's
 * own guide to variability takes the median of five, which halves the spread of
 * one run) and prints a table, each run's score and metrics as it ends. One
 * request to each page and one audit of the first, not counted, come before: the
 * first render after a start is no visitor's.
 * `LIGHTHOUSE_PAGES` names the pages to audit, comma-separated (`home,upload
 * page`; default all four), for comparing two builds page by page. Not part of
 * `npm test`. Chromium is Debian's (`CHROME_PATH`, default /usr/bin/chromium).
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliCompressSync, constants } from 'node:zlib'
import lighthouse from 'lighthouse'
import { freePort, startServer, type RunningServer } from '../tests/support/server'
import { seedPages } from './lib/page-fixtures'

const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 5)
/** The pages audited, by name, each with its path on the seeded site. */
const PAGES: [string, (fixtures: Awaited<ReturnType<typeof seedPages>>) => string][] = [
  ['home', () => '/'],
  ['upload page', fixtures => `/upload/${fixtures.imageId}`],
  ['vote mode', () => '/vote'],
  ['user page', fixtures => `/user/${fixtures.username}`],
]
const ONLY = process.env.LIGHTHOUSE_PAGES?.split(',').map(name => name.trim())
const unknown = ONLY?.filter(name => !PAGES.some(([page]) => page === name)) ?? []
// Told before the server starts and seeds: a misspelt page would otherwise be left out without a word.
if (unknown.length) throw new Error(`LIGHTHOUSE_PAGES: no page named ${unknown.join(', ')} (pages: ${PAGES.map(([name]) => name).join(', ')})`)
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium'

/** The home page's first-load JavaScript: every script and module preload of its HTML, compressed with brotli (quality 11, as served precompressed). */
async function firstLoadJs(server: RunningServer): Promise<{ files: number, raw: number, brotli: number }> {
  const html = await (await fetch(`${server.url}/`)).text()
  const urls = new Set<string>()
  for (const match of html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="([^"]+\.js)"/g)) urls.add(match[1]!)
  for (const match of html.matchAll(/<link[^>]*\shref="([^"]+\.js)"[^>]*rel="modulepreload"/g)) urls.add(match[1]!)
  let raw = 0
  let brotli = 0
  for (const url of urls) {
    const bytes = Buffer.from(await (await fetch(new URL(url, server.url))).arrayBuffer())
    raw += bytes.length
    brotli += brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length
  }
  return { files: urls.size, raw, brotli }
}

/** Debian's Chromium with a DevTools port for Lighthouse, in a throwaway profile. */
async function launchChromium() {
  const port = await freePort()
  const profile = mkdtempSync(join(tmpdir(), 'dif-lighthouse-'))
  const child = spawn(CHROME_PATH, [
    '--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update',
    '--disable-sync', `--remote-debugging-port=${port}`, '--remote-debugging-address=127.0.0.1', `--user-data-dir=${profile}`, 'about:blank',
  ], { stdio: 'ignore', detached: true })
  for (let tries = 0; ; tries++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/json/version`)).ok) break
    }
    catch { /* not listening yet */ }
    if (tries > 100) throw new Error('Chromium did not open its DevTools port')
    await new Promise(resolve => setTimeout(resolve, 100))
  }
  return {
    port,
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise(resolve => child.once('exit', resolve))
        // The whole process group: Chromium's helper processes kept writing to the profile
        // after the browser itself had gone, and its removal failed (ENOTEMPTY).
        process.kill(-child.pid!, 'SIGKILL')
        await exited
      }
      rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 })
    },
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

async function main() {
  const server = await startServer({}, { engine: 'sqlite' })
  const chrome = await launchChromium()
  try {
    const fixtures = await seedPages(server)
    const audited = PAGES.filter(([name]) => !ONLY || ONLY.includes(name)).map(([name, pathOf]) => [name, pathOf(fixtures)] as const)
    // Neither the server's first render of a page nor Chromium's first audit counts: a
    // site in use meets neither, and they made the first page's first run the slowest.
    for (const [, path] of audited) await (await fetch(`${server.url}${path}`)).text()
    if (audited[0]) await lighthouse(`${server.url}${audited[0][1]}`, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] })
    const rows: string[][] = []
    for (const [name, path] of audited) {
      const scores: Record<string, number[]> = {}
      const failed = new Set<string>()
      let lcp = 0
      let cls = 0
      let tbt = 0
      for (let run = 0; run < RUNS; run++) {
        const result = await lighthouse(`${server.url}${path}`, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES] })
        const lhr = result!.lhr
        for (const category of CATEGORIES) (scores[category] ??= []).push(Math.round((lhr.categories[category]?.score ?? 0) * 100))
        const metric = (id: string) => lhr.audits[id]?.numericValue ?? 0
        const [runLcp, runCls, runTbt] = [metric('largest-contentful-paint'), metric('cumulative-layout-shift'), metric('total-blocking-time')]
        lcp = Math.max(lcp, runLcp)
        cls = Math.max(cls, runCls)
        tbt = Math.max(tbt, runTbt)
        // Each run's metrics, so a low median can be traced to the metric that moved.
        console.log(`${name} run ${run + 1}: ${scores.performance!.at(-1)} (FCP ${Math.round(metric('first-contentful-paint'))} ms, `
          + `SI ${Math.round(metric('speed-index'))} ms, LCP ${Math.round(runLcp)} ms, TBT ${Math.round(runTbt)} ms, CLS ${runCls.toFixed(3)})`)
        for (const category of CATEGORIES.slice(1)) {
          for (const ref of lhr.categories[category]?.auditRefs ?? []) {
            const audit = lhr.audits[ref.id]
            if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1) failed.add(`${category}: ${ref.id}`)
          }
        }
      }
      rows.push([name, ...CATEGORIES.map(category => String(median(scores[category]!))), `${Math.round(lcp)} ms`, cls.toFixed(3), `${Math.round(tbt)} ms`, [...failed].join(', ') || '—'])
    }
    const header = ['page', 'perf', 'a11y', 'best pr.', 'SEO', 'LCP (max)', 'CLS (max)', 'TBT (max)', 'failed audits']
    const widths = header.map((title, i) => Math.max(title.length, ...rows.map(row => row[i]!.length)))
    const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`
    console.log(`\nLighthouse ${RUNS} run(s) a page, mobile preset, median score:\n`)
    console.log(line(header))
    console.log(line(widths.map(width => '-'.repeat(width))))
    for (const row of rows) console.log(line(row))
    const js = await firstLoadJs(server)
    console.log(`\nHome page first-load JavaScript: ${js.files} files, ${(js.raw / 1024).toFixed(1)} KB raw, ${(js.brotli / 1024).toFixed(1)} KB brotli (goal ≤ 70 KB)`)
  }
  finally {
    await chrome.kill()
    await server.stop()
  }
}

await main()
