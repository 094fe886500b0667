/**
 * `npm run profile:page -- [path ...]` (after `npm run build`): where a page's
 * main-thread time goes as it loads, in Debian's Chromium on a phone's screen
 * with the CPU slowed as Lighthouse's mobile preset counts it (4 times;
 * `PROFILE_CPU_SLOWDOWN`). Starts the built server on a fresh SQLite data dir
 * seeded as for `npm run lighthouse`; a path may say `{upload}` and `{user}`
 * for the seeded picture and owner (default: the four pages Lighthouse audits).
 * For each page it prints:
 *
 * - the long tasks (over 50 ms: what Total Blocking Time counts), each with the
 *   work it was made of, from a Chromium trace (the parts may nest: a layout
 *   forced by a script is inside its task's script time);
 * - the JavaScript's own time by source file and by function, from a CPU
 *   profile. After `PROFILE_BUILD=1 npm run build` (the browser's code not
 *   minified, with source maps) each is named by its source file and line;
 *   after a normal build, by chunk.
 *
 * Not part of `npm test`: a profile is read by a person (docs/performance.md,
 * "Profiling").
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { LEAST_UPPER_BOUND, originalPositionFor, TraceMap } from '@jridgewell/trace-mapping'
import { chromium, type Browser } from 'playwright-core'
import { ROOT, startServer } from '../tests/support/server'
import { seedPages } from './lib/page-fixtures'

const SLOWDOWN = Number(process.env.PROFILE_CPU_SLOWDOWN ?? 4)
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium'
const LONG_TASK_MS = 50
/** What a long task is said to be made of: trace events that name a kind of work. */
const WORK = new Set(['ParseHTML', 'ParseAuthorStyleSheet', 'EvaluateScript', 'v8.compileModule', 'v8.evaluateModule', 'FunctionCall', 'RunMicrotasks',
  'TimerFire', 'EventDispatch', 'UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize', 'MinorGC', 'MajorGC', 'Decode Image'])

interface TraceEvent { name: string, ph: string, ts: number, dur?: number, pid: number, tid: number, args?: { data?: { isLoadingMainFrame?: boolean, documentLoaderURL?: string } } }
interface ProfileNode { id: number, callFrame: { functionName: string, url: string, lineNumber: number, columnNumber: number }, positionTicks?: { line: number, ticks: number }[] }

const ms = (microseconds: number) => (microseconds / 1000).toFixed(0)

async function newPhonePage(browser: Browser) {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true })
  const page = await context.newPage()
  const cdp = await context.newCDPSession(page)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: SLOWDOWN })
  return { context, page, cdp }
}

/** The page's long tasks, from a trace of its load and the seconds after. */
async function longTasks(browser: Browser, url: string): Promise<string[]> {
  const { context, page } = await newPhonePage(browser)
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink.user_timing'] })
  await page.goto(url, { waitUntil: 'load' })
  await page.waitForTimeout(3000)
  const events = (JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] }).traceEvents
  await context.close()

  // The page's renderer, the one that started loading it in its main frame (not about:blank's).
  const navigation = events.find(event => event.name === 'navigationStart' && event.args?.data?.isLoadingMainFrame && event.args.data.documentLoaderURL === url)
  if (!navigation) throw new Error(`no navigation to ${url} in the trace`)
  const onMain = events.filter(event => event.pid === navigation.pid && event.tid === navigation.tid && event.ph === 'X')
  const start = navigation.ts
  return onMain.filter(event => event.name === 'RunTask' && (event.dur ?? 0) > LONG_TASK_MS * 1000).map((task) => {
    const parts = new Map<string, number>()
    for (const event of onMain) {
      if (WORK.has(event.name) && event.ts >= task.ts && event.ts + event.dur! <= task.ts + task.dur!) parts.set(event.name, (parts.get(event.name) ?? 0) + event.dur!)
    }
    const made = [...parts].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([name, time]) => `${name} ${ms(time)}`).join(', ')
    return `${ms(task.ts - start).padStart(6)} ms  ${ms(task.dur!).padStart(4)} ms  ${made}`
  })
}

/** The JavaScript's own time (ms) by source file and by function and line, from a CPU profile of the load. */
async function scriptTime(browser: Browser, url: string): Promise<{ files: [string, number][], functions: [string, number][] }> {
  const { context, page, cdp } = await newPhonePage(browser)
  await cdp.send('Profiler.enable')
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 })
  await cdp.send('Profiler.start')
  await page.goto(url, { waitUntil: 'load' })
  await page.waitForTimeout(3000)
  const { profile } = await cdp.send('Profiler.stop') as { profile: { nodes: ProfileNode[], timeDeltas: number[] } }
  await context.close()

  const tickMs = profile.timeDeltas.reduce((sum, delta) => sum + delta, 0) / profile.timeDeltas.length / 1000
  const maps = new Map<string, TraceMap | null>()
  const mapOf = (chunk: string) => {
    if (!maps.has(chunk)) {
      const file = join(ROOT, '.output/public/_nuxt', `${chunk}.map`)
      maps.set(chunk, existsSync(file) ? new TraceMap(readFileSync(file, 'utf8')) : null)
    }
    return maps.get(chunk)!
  }
  const files = new Map<string, number>()
  const functions = new Map<string, number>()
  const add = (into: Map<string, number>, key: string, time: number) => into.set(key, (into.get(key) ?? 0) + time)
  for (const { callFrame, positionTicks } of profile.nodes) {
    if (!callFrame.url.includes('/_nuxt/')) continue
    const chunk = callFrame.url.split('/').pop()!
    const map = mapOf(chunk)
    for (const { line, ticks } of positionTicks ?? []) {
      // A profile counts ticks per line; the line's first mapped column names its source.
      const source = map ? originalPositionFor(map, { line, column: 0, bias: LEAST_UPPER_BOUND }) : null
      const file = source?.source?.replace(/^.*node_modules\//, '').replace(/^(\.\.\/)+/, '') ?? chunk
      add(files, file, ticks * tickMs)
      add(functions, `${callFrame.functionName || '(top level)'} ${file}:${source?.line ?? callFrame.columnNumber}`, ticks * tickMs)
    }
  }
  const top = (from: Map<string, number>, count: number) => [...from].sort((a, b) => b[1] - a[1]).slice(0, count)
  return { files: top(files, 12), functions: top(functions, 15) }
}

async function main() {
  const server = await startServer({}, { engine: 'sqlite' })
  const browser = await chromium.launch({ executablePath: CHROME_PATH, args: ['--no-sandbox'] })
  try {
    const { imageId, username } = await seedPages(server)
    const paths = process.argv.slice(2).length ? process.argv.slice(2) : ['/', '/upload/{upload}', '/vote', '/user/{user}']
    const sourceMapped = readdirSync(join(ROOT, '.output/public/_nuxt')).some(name => name.endsWith('.js.map'))
    console.log(`CPU slowed ${SLOWDOWN} times; ${sourceMapped ? 'source-mapped build' : 'minified build (PROFILE_BUILD=1 npm run build names source files)'}`)
    for (const path of paths) {
      const url = `${server.url}${path.replace('{upload}', imageId).replace('{user}', username)}`
      console.log(`\n## ${path}\n\nLong tasks (start, length, made of):`)
      for (const line of await longTasks(browser, url)) console.log(line)
      const { files, functions } = await scriptTime(browser, url)
      console.log('\nJavaScript own time by file (ms):')
      for (const [file, time] of files) console.log(`${time.toFixed(1).padStart(7)}  ${file}`)
      console.log('\nby function:')
      for (const [name, time] of functions) console.log(`${time.toFixed(1).padStart(7)}  ${name}`)
    }
  }
  finally {
    await browser.close()
    await server.stop()
  }
}

await main()
