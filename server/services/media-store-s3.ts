import { createHash } from 'node:crypto'
import { Readable } from 'node:stream'
import type { ReadableStream as WebReadableStream } from 'node:stream/web'
import { AwsClient } from 'aws4fetch'
import { apiError } from './errors'
import { DEFAULT_ANSWER_MS, type MediaStore } from './media-store'

/** NUXT_S3_* (docs/behaviour.md, Scaling out). */
export interface S3Settings {
  /** Empty: AWS S3 of `region`. */
  endpoint: string
  region: string
  bucket: string
  accessKeyId: string
  secretAccessKey: string
  /** `<endpoint>/<bucket>/<key>` (MinIO, Garage, Ceph, test servers); false: `<bucket>.<endpoint host>/<key>`. */
  forcePathStyle: boolean
  /** Longest wait for the bucket's answer (its headers, for a GET): a stalled bucket fails the request, not the process. */
  answerSeconds: number
}

const MAX_ANSWER_SECONDS = 600

/**
 * The settings from their NUXT_S3_* values (runtimeConfig or the environment),
 * defaults filled in; throws naming the variable that is missing or wrong.
 */
export function s3Settings(values: { endpoint?: unknown, region?: unknown, bucket?: unknown, accessKeyId?: unknown, secretAccessKey?: unknown, forcePathStyle?: unknown, answerSeconds?: unknown }): S3Settings {
  const text = (value: unknown) => (value === undefined || value === null ? '' : String(value)).trim()
  const settings = {
    endpoint: text(values.endpoint).replace(/\/+$/, ''),
    region: text(values.region) || 'us-east-1',
    bucket: text(values.bucket),
    accessKeyId: text(values.accessKeyId),
    secretAccessKey: text(values.secretAccessKey),
    forcePathStyle: !/^(?:false|0)$/i.test(text(values.forcePathStyle)),
    answerSeconds: text(values.answerSeconds) === '' ? DEFAULT_ANSWER_MS / 1000 : Number(text(values.answerSeconds)),
  }
  if (!settings.bucket) throw new Error('Media in S3 need NUXT_S3_BUCKET')
  if (!settings.accessKeyId || !settings.secretAccessKey) throw new Error('Media in S3 need NUXT_S3_ACCESS_KEY_ID and NUXT_S3_SECRET_ACCESS_KEY')
  if (settings.endpoint && !/^https?:\/\/[^/]+/.test(settings.endpoint)) throw new Error('NUXT_S3_ENDPOINT must be an http:// or https:// URL')
  if (!Number.isInteger(settings.answerSeconds) || settings.answerSeconds < 1 || settings.answerSeconds > MAX_ANSWER_SECONDS) {
    throw new Error(`NUXT_S3_ANSWER_SECONDS must be a whole number of seconds from 1 to ${MAX_ANSWER_SECONDS}`)
  }
  return settings
}

/** The same settings read from the environment (scripts, which run without Nuxt's runtimeConfig). */
export function s3SettingsFromEnv(env: NodeJS.ProcessEnv = process.env): S3Settings {
  return s3Settings({
    endpoint: env.NUXT_S3_ENDPOINT,
    region: env.NUXT_S3_REGION,
    bucket: env.NUXT_S3_BUCKET,
    accessKeyId: env.NUXT_S3_ACCESS_KEY_ID,
    secretAccessKey: env.NUXT_S3_SECRET_ACCESS_KEY,
    forcePathStyle: env.NUXT_S3_FORCE_PATH_STYLE,
    answerSeconds: env.NUXT_S3_ANSWER_SECONDS,
  })
}

/** The bucket's own URL, without a trailing slash. */
export function bucketUrl(settings: S3Settings): string {
  const endpoint = new URL(settings.endpoint || `https://s3.${settings.region}.amazonaws.com`)
  const origin = `${endpoint.protocol}//${settings.forcePathStyle ? '' : `${settings.bucket}.`}${endpoint.host}`
  const path = endpoint.pathname.replace(/\/+$/, '')
  return settings.forcePathStyle ? `${origin}${path}/${encodeURIComponent(settings.bucket)}` : `${origin}${path}`
}

/** Longest wait for the bucket check (start-up and /api/health). */
const CHECK_MS = 2_000

/** 503 with Retry-After: the bucket did not answer, or answered with an error. */
const unavailable = () => apiError(503, 'Media storage is unavailable, please try again shortly', { retryAfter: 5 })

/**
 * Media in an S3-compatible bucket, through aws4fetch (SigV4 on fetch). Every
 * write carries the SHA-256 of its bytes, which the bucket checks. A PUT is
 * atomic: readers see the previous object or the new one.
 */
export function s3MediaStore(settings: S3Settings): MediaStore {
  const client = new AwsClient({
    accessKeyId: settings.accessKeyId,
    secretAccessKey: settings.secretAccessKey,
    service: 's3',
    region: settings.region,
    // aws4fetch retries 5xx and 429 answers (not refused connections): twice, briefly.
    retries: 2,
  })
  const base = bucketUrl(settings)
  const name = `bucket "${settings.bucket}" at ${new URL(base).origin}`
  const answerMs = settings.answerSeconds * 1000
  const objectUrl = (key: string) => `${base}/${key.split('/').map(encodeURIComponent).join('/')}`

  /** One signed request; any failure to get an answer is logged and becomes a 503. */
  async function send(method: string, url: string, init: { body?: Buffer, headers?: Record<string, string> } = {}, ms = answerMs): Promise<Response> {
    const abort = new AbortController()
    let timer: ReturnType<typeof setTimeout> | undefined
    // The request is given up on by the clock, not only by the abort: a fetch
    // with a body on a stalled connection can ignore its abort signal and wait
    // until the bucket wakes (seen with Node 20's fetch).
    const gaveUp = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new Error(`no answer within ${ms / 1000} s`)
        abort.abort(error)
        reject(error)
      }, ms)
    })
    const answer = client.fetch(url, { method, headers: init.headers, body: init.body && new Uint8Array(init.body.buffer as ArrayBuffer, init.body.byteOffset, init.body.length), signal: abort.signal })
    try {
      return await Promise.race([answer, gaveUp])
    }
    catch (error) {
      console.warn(`[media] ${name}: ${method} ${new URL(url).pathname} failed: ${reason(error)}`)
      // An answer that comes after all is not read.
      answer.then(late => late.body?.cancel(), () => {})
      throw unavailable()
    }
    finally {
      clearTimeout(timer)
    }
  }

  /** Throws a 503 (logged) unless the answer is one of `expected`; the body of a refused answer is read. */
  async function expect(response: Response, method: string, key: string, expected: number[]): Promise<void> {
    if (expected.includes(response.status)) return
    const detail = (await response.text().catch(() => '')).match(/<Code>([^<]*)<\/Code>/)?.[1] ?? ''
    console.warn(`[media] ${name}: ${method} ${key} answered ${response.status} ${detail}`.trimEnd())
    throw unavailable()
  }

  return {
    name,
    shared: true,
    answerMs,
    async put(key, data, contentType) {
      const sha256 = createHash('sha256').update(data).digest('hex')
      const response = await send('PUT', objectUrl(key), { body: data, headers: { 'content-type': contentType, 'x-amz-content-sha256': sha256 } })
      await expect(response, 'PUT', key, [200])
      await response.body?.cancel()
    },
    async open(key) {
      const response = await send('GET', objectUrl(key))
      if (response.status === 404) {
        await response.body?.cancel()
        return null
      }
      await expect(response, 'GET', key, [200])
      return { body: Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), size: Number(response.headers.get('content-length')) }
    },
    async read(key) {
      const response = await send('GET', objectUrl(key))
      if (response.status === 404) {
        await response.body?.cancel()
        return null
      }
      await expect(response, 'GET', key, [200])
      return Buffer.from(await response.arrayBuffer())
    },
    async remove(keys) {
      await Promise.all(keys.map(async (key) => {
        const response = await send('DELETE', objectUrl(key))
        await expect(response, 'DELETE', key, [200, 204, 404])
        await response.body?.cancel()
      }))
    },
    async list(prefix) {
      const found: { key: string, modified: Date }[] = []
      let token: string | undefined
      do {
        const query = new URLSearchParams({ 'list-type': '2', 'prefix': prefix, ...(token ? { 'continuation-token': token } : {}) })
        const response = await send('GET', `${base}/?${query}`)
        await expect(response, 'LIST', prefix, [200])
        const xml = await response.text()
        for (const [, entry] of xml.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)) {
          const key = xmlText(entry!.match(/<Key>([\s\S]*?)<\/Key>/)?.[1] ?? '')
          const modified = new Date(entry!.match(/<LastModified>([^<]*)<\/LastModified>/)?.[1] ?? 0)
          found.push({ key, modified })
        }
        token = /<IsTruncated>true<\/IsTruncated>/.test(xml) ? xmlText(xml.match(/<NextContinuationToken>([^<]*)<\/NextContinuationToken>/)?.[1] ?? '') || undefined : undefined
      } while (token)
      return found
    },
    async check() {
      // Quiet on purpose (no log line): /api/health asks every few seconds while the bucket is away.
      let response: Response
      try {
        response = await client.fetch(`${base}/`, { method: 'HEAD', signal: AbortSignal.timeout(CHECK_MS) })
      }
      catch (error) {
        throw new Error(`the ${name} cannot be reached (${reason(error)})`, { cause: error })
      }
      await response.body?.cancel()
      if (response.status === 200) return
      if (response.status === 404) throw new Error(`the ${name} does not exist (create it first)`)
      if (response.status === 403) throw new Error(`the ${name} refused the credentials (NUXT_S3_ACCESS_KEY_ID / NUXT_S3_SECRET_ACCESS_KEY)`)
      throw new Error(`the ${name} answered ${response.status}`)
    },
  }
}

/** Why a fetch failed: undici's "fetch failed" carries the real cause (ECONNREFUSED, a timeout). */
function reason(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause
  return cause instanceof Error ? cause.message : (error as Error).message
}

/** The text of an XML element's content (the five predefined entities and numeric ones). */
function xmlText(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, entity: string) => {
    if (entity[0] === '#') return String.fromCodePoint(entity[1]?.toLowerCase() === 'x' ? Number.parseInt(entity.slice(2), 16) : Number(entity.slice(1)))
    return ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: '\'' } as Record<string, string>)[entity.toLowerCase()]!
  })
}
