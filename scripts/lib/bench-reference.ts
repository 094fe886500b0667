/**
 * The reference servers `npm run bench` holds ours against, each in a process
 * of its own (so none shares an event loop with autocannon or another server):
 *
 * - `bytes`: node:http writing fixed bytes with fixed headers, what the platform can do;
 * - `h3`: the same answers through a bare h3 app, the HTTP layer Nitro is built on,
 *   what the framework alone costs;
 * - `fs`: node:http streaming a file from disk with fixed headers, what serving
 *   an image can cost at best.
 *
 * Each serves the answers it is given, by path and query, and 404 otherwise.
 */
import { createReadStream, readFileSync, writeFileSync } from 'node:fs'
import { createServer, request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp, eventHandler, setResponseHeaders, setResponseStatus, toNodeListener } from 'h3'
import { freePort } from '../../tests/support/server'
import { startChildServer } from './child-server'

export type ReferenceKind = 'bytes' | 'h3' | 'fs'

/**
 * Our server as the benchmarks run it: the rate limiter on, so its cost is
 * counted, with every category's limit raised past what a run sends.
 */
export const BENCH_SERVER_ENV: Record<string, string> = {
  NUXT_RATE_LIMIT_ENABLED: 'true',
  ...Object.fromEntries(['AUTH', 'UPLOAD', 'VOTE', 'ANON_VOTE', 'GENERAL'].map(name => [`NUXT_RATE_LIMIT_${name}_MAX`, '1000000000'])),
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
  return startChildServer(`${kind} reference`, [import.meta.filename, kind, file, String(port)])
}

function serve(kind: ReferenceKind, answers: FixedAnswers, port: number) {
  const bodies = new Map(Object.entries(answers).map(([path, answer]) => [path, { ...answer, bytes: Buffer.from(answer.body ?? '', 'base64') }]))
  const listening = () => console.info(`listening ${port}`)
  if (kind === 'h3') {
    const app = createApp()
    app.use(eventHandler((event) => {
      const answer = bodies.get(event.node.req.url ?? '')
      if (!answer) {
        setResponseStatus(event, 404)
        return ''
      }
      setResponseStatus(event, answer.status)
      setResponseHeaders(event, answer.headers)
      return answer.bytes
    }))
    createServer(toNodeListener(app)).listen(port, '127.0.0.1', listening)
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
  serve(kind, JSON.parse(readFileSync(file, 'utf8')) as FixedAnswers, Number(port))
}
