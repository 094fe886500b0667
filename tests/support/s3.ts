import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { unlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { AwsClient } from 'aws4fetch'
import S3rver from 's3rver'

/** s3rver's fixed credentials. */
const ACCESS_KEY = 'S3RVER'
const SECRET_KEY = 'S3RVER'

export interface TestS3 {
  /** `http://127.0.0.1:<port>`, path-style. */
  endpoint: string
  /** The NUXT_* settings of a site keeping its media in `bucket` of this server. */
  env: (bucket: string) => Record<string, string>
  /** Creates a bucket of a fresh name and answers the name. */
  createBucket: () => Promise<string>
  /** Every key in the bucket, sorted. */
  keys: (bucket: string) => Promise<string[]>
  /** An object's bytes and Content-Type, or null. */
  object: (bucket: string, key: string) => Promise<{ data: Buffer, contentType: string | null } | null>
  deleteObject: (bucket: string, key: string) => Promise<void>
  /** Closes the server (its port refuses connections from then on) and removes its folder. */
  stop: () => Promise<void>
}

/**
 * An S3 stand-in (s3rver) in this test process, on 127.0.0.1 and a free port,
 * keeping its buckets in a temporary folder. The site talks to it over HTTP
 * with SigV4, as it would to MinIO or AWS; the test reads the bucket the same way.
 */
export async function startS3(): Promise<TestS3> {
  const directory = mkdtempSync(join(tmpdir(), 'dif-s3-'))
  const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true })
  keepFolders(server)
  const { port } = await server.run()
  const endpoint = `http://127.0.0.1:${port}`
  const client = new AwsClient({ accessKeyId: ACCESS_KEY, secretAccessKey: SECRET_KEY, service: 's3', region: 'us-east-1', retries: 0 })
  const url = (bucket: string, key = '') => `${endpoint}/${bucket}/${key.split('/').map(encodeURIComponent).join('/')}`
  let stopped = false

  return {
    endpoint,
    env: bucket => ({
      NUXT_MEDIA_STORAGE: 's3',
      NUXT_S3_ENDPOINT: endpoint,
      NUXT_S3_BUCKET: bucket,
      NUXT_S3_ACCESS_KEY_ID: ACCESS_KEY,
      NUXT_S3_SECRET_ACCESS_KEY: SECRET_KEY,
    }),
    async createBucket() {
      const bucket = `dif-${randomBytes(6).toString('hex')}`
      const response = await client.fetch(url(bucket), { method: 'PUT' })
      if (response.status !== 200) throw new Error(`Creating bucket ${bucket} answered ${response.status}: ${await response.text()}`)
      return bucket
    },
    async keys(bucket) {
      const keys: string[] = []
      let token = ''
      for (;;) {
        const query = new URLSearchParams({ 'list-type': '2', ...(token ? { 'continuation-token': token } : {}) })
        // The stand-in walks its folders to list, and answers 500 when an object goes while it
        // walks; S3 clients retry a 500, and so does this.
        let response = await client.fetch(`${url(bucket)}?${query}`)
        for (let retry = 0; response.status === 500 && retry < 3; retry++) {
          await response.text()
          await new Promise(resolve => setTimeout(resolve, 50))
          response = await client.fetch(`${url(bucket)}?${query}`)
        }
        const xml = await response.text()
        if (response.status !== 200) throw new Error(`Listing ${bucket} answered ${response.status}: ${xml}`)
        keys.push(...[...xml.matchAll(/<Key>([^<]*)<\/Key>/g)].map(match => match[1]!))
        token = /<IsTruncated>true<\/IsTruncated>/.test(xml) ? xml.match(/<NextContinuationToken>([^<]*)</)?.[1] ?? '' : ''
        if (!token) return keys.sort()
      }
    },
    async object(bucket, key) {
      const response = await client.fetch(url(bucket, key))
      if (response.status === 404) return null
      if (response.status !== 200) throw new Error(`GET ${bucket}/${key} answered ${response.status}`)
      return { data: Buffer.from(await response.arrayBuffer()), contentType: response.headers.get('content-type') }
    },
    async deleteObject(bucket, key) {
      const response = await client.fetch(url(bucket, key), { method: 'DELETE' })
      if (response.status !== 204 && response.status !== 200) throw new Error(`DELETE ${bucket}/${key} answered ${response.status}`)
    },
    async stop() {
      if (stopped) return
      stopped = true
      await server.close()
      rmSync(directory, { recursive: true, force: true })
    },
  }
}

/** The part of s3rver's file store this module replaces. */
interface FileStore {
  getResourcePath: (bucket: string, key: string, resource: string) => string
  deleteObject: (bucket: string, key: string) => Promise<void>
}

/**
 * s3rver removes a key's folder once a delete leaves it empty. A put of another
 * key in that folder at the same moment (two instances, `pending/` markers) then
 * opens its file in a folder that is gone, and the write stream's ENOENT has no
 * listener: it crashes the test process. Real S3 has no folders, so keeping them
 * changes nothing a test can see: listings walk files, not folders.
 */
function keepFolders(server: S3rver) {
  const store = (server as unknown as { store: FileStore }).store
  store.deleteObject = async (bucket, key) => {
    await Promise.all(['object', 'object.md5', 'metadata.json'].map(resource =>
      unlink(store.getResourcePath(bucket, key, resource)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error
      })))
  }
}
