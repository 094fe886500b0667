/**
 * The reference servers `npm run bench` holds ours against, each in a process
 * of its own (so none shares an event loop with autocannon or another server):
 *
 * - `bytes`: node:http writing fixed bytes with fixed headers, what the platform can do;
 * - `nitro`: the same answers from one catch-all handler of a bare Nitro build
 *   (its default pipeline, no plugins, middleware or other routes), what the
 *   framework alone costs;
 * - `h3`: the same through a bare h3 app, the HTTP layer Nitro is built on;
 * - `fs`: node:http streaming a file from disk with fixed headers, what serving
 *   an image can cost at best.
 *
 * Each serves the answers it is given, by path and query, and 404 otherwise.
 */
import { createReadStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, request, type RequestListener } from 'node:http'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { createApp, toNodeListener, type EventHandler } from 'h3'
import { freePort } from '../../tests/support/server'
import { startChildServer } from './child-server'

export type ReferenceKind = 'bytes' | 'nitro' | 'h3' | 'fs'

/**
 * Our server as the benchmarks run it: the rate limiter on, so its cost is
 * counted, with every category's limit raised past what a run sends, and
 * X-Forwarded-For believed, as behind a proxy.
 */
export const BENCH_SERVER_ENV: Record<string, string> = {
  NUXT_RATE_LIMIT_ENABLED: 'true',
  ...Object.fromEntries(['AUTH', 'UPLOAD', 'VOTE', 'ANON_VOTE', 'COMMENT', 'GENERAL'].map(name => [`NUXT_RATE_LIMIT_${name}_MAX`, '1000000000'])),
  // As behind a proxy: the bench's anonymous voters each send their own address in X-Forwarded-For (bench-scenarios.ts).
  NUXT_TRUST_PROXY: 'true',
}

/** One answer a reference gives: our server's status and headers, and its body or the file it streams. */
export interface FixedAnswer {
  status: number
  headers: Record<string, string>
  /** base64 */
  body?: string
  file?: string
}

export type FixedAnswers = Record<string, FixedAnswer>

/** Headers that belong to a connection or a moment, not to the answer. */
const PER_RESPONSE = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding'])

/** Our server's answer to `path` as raw bytes and headers (no compression asked for). */
export function captureAnswer(baseUrl: string, path: string, headers: Record<string, string> = {}): Promise<FixedAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, baseUrl), { headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => {
        const kept: Record<string, string> = {}
        for (const [name, value] of Object.entries(res.headers)) {
          if (value !== undefined && !PER_RESPONSE.has(name)) kept[name] = Array.isArray(value) ? value.join(', ') : value
        }
        resolve({ status: res.statusCode ?? 0, headers: kept, body: Buffer.concat(chunks).toString('base64') })
      })
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}

/** Starts a reference server of `kind` in a child process; `stop` ends it. */
export async function startReference(kind: ReferenceKind, answers: FixedAnswers): Promise<{ url: string, stop: () => Promise<void> }> {
  const file = join(tmpdir(), `dif-bench-${kind}-${process.pid}-${Date.now()}.json`)
  writeFileSync(file, JSON.stringify(answers))
  const port = await freePort()
  if (kind === 'h3' || kind === 'nitro') writeHandler()
  if (kind === 'nitro') await buildBareNitro()
  return startChildServer(`${kind} reference`, [import.meta.filename, kind, file, String(port)])
}

/** Where the framework references live: inside the project, so their handler resolves h3 from our node_modules. */
const NITRO_DIR = resolve('node_modules/.cache/dif-bench-nitro')
const NITRO_ENTRY = join(NITRO_DIR, '.output/server/index.mjs')
const HANDLER_FILE = join(NITRO_DIR, 'handler.mjs')

/**
 * The one handler of the h3 app and of the bare Nitro build. It reads the
 * answers file named by BENCH_ANSWERS when loaded.
 */
const NITRO_HANDLER = `import { readFileSync } from 'node:fs'
import { defineEventHandler, setResponseHeaders, setResponseStatus } from 'h3'

const answers = JSON.parse(readFileSync(process.env.BENCH_ANSWERS, 'utf8'))
const bodies = new Map(Object.entries(answers).map(([path, answer]) => [path, { ...answer, bytes: Buffer.from(answer.body ?? '', 'base64') }]))

export default defineEventHandler((event) => {
  const answer = bodies.get(event.node.req.url ?? '')
  if (!answer) {
    setResponseStatus(event, 404)
    return ''
  }
  setResponseStatus(event, answer.status)
  setResponseHeaders(event, answer.headers)
  return answer.bytes
})
`

function writeHandler() {
  mkdirSync(NITRO_DIR, { recursive: true })
  writeFileSync(HANDLER_FILE, NITRO_HANDLER)
}

/** Builds (once per Nitro version and handler) a Nitro app with the one handler above, as a node listener. */
async function buildBareNitro() {
  const { version } = JSON.parse(readFileSync('node_modules/nitropack/package.json', 'utf8')) as { version: string }
  const stamp = join(NITRO_DIR, 'built-for')
  const wanted = `${version}\n${NITRO_HANDLER}`
  if (existsSync(NITRO_ENTRY) && existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted) return
  const { build, createNitro, prepare } = await import('nitropack')
  const nitro = await createNitro({
    rootDir: NITRO_DIR,
    dev: false,
    preset: 'node-listener',
    compatibilityDate: '2026-11-01',
    logLevel: 1,
    handlers: [{ route: '/**', handler: HANDLER_FILE }],
  })
  await prepare(nitro)
  await build(nitro)
  await nitro.close()
  writeFileSync(stamp, wanted)
}

async function serve(kind: ReferenceKind, answers: FixedAnswers, port: number, answersFile: string) {
  const bodies = new Map(Object.entries(answers).map(([path, answer]) => [path, { ...answer, bytes: Buffer.from(answer.body ?? '', 'base64') }]))
  const listening = () => console.info(`listening ${port}`)
  process.env.BENCH_ANSWERS = answersFile
  if (kind === 'nitro') {
    const { listener } = await import(pathToFileURL(NITRO_ENTRY).href) as { listener: RequestListener }
    createServer(listener).listen(port, '127.0.0.1', listening)
    return
  }
  if (kind === 'h3') {
    const { default: handler } = await import(pathToFileURL(HANDLER_FILE).href) as { default: EventHandler }
    createServer(toNodeListener(createApp().use(handler))).listen(port, '127.0.0.1', listening)
    return
  }
  createServer((req, res) => {
    const answer = bodies.get(req.url ?? '')
    if (!answer) {
      res.writeHead(404).end()
      return
    }
    res.writeHead(answer.status, answer.headers)
    if (kind === 'fs' && answer.file) createReadStream(answer.file).pipe(res)
    else res.end(answer.bytes)
  }).listen(port, '127.0.0.1', listening)
}

if (process.argv[1] === import.meta.filename) {
  const [kind, file, port] = process.argv.slice(2) as [ReferenceKind, string, string]
  await serve(kind, JSON.parse(readFileSync(file, 'utf8')) as FixedAnswers, Number(port), file)
}
