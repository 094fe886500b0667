import { resolve } from 'node:path'
import { s3SettingsFromEnv, type S3Settings } from '../../server/services/media-store-s3'

/** Where a site keeps its rows, media and generated secrets, read as the server reads them. */
export interface SiteSettings {
  /** `NUXT_DATA_DIR` (default `./data`), absolute. */
  dataDir: string
  /** `NUXT_DATABASE_URL`: a postgres:// URL, or '' for SQLite at `<dataDir>/app.sqlite`. */
  databaseUrl: string
  /** `NUXT_MEDIA_STORAGE`: `<dataDir>/media` or the bucket of NUXT_S3_*. */
  media: 'fs' | 's3'
  /** The bucket's settings when `media` is `s3`. */
  s3?: S3Settings
}

export const isPostgresUrl = (value: string) => /^postgres(ql)?:\/\//.test(value.trim())

/** `fs` or `s3` (any case, trimmed); throws naming `source` otherwise. */
export function mediaKind(value: string | undefined, source: string): 'fs' | 's3' {
  const kind = (value ?? '').trim().toLowerCase() || 'fs'
  if (kind !== 'fs' && kind !== 's3') throw new Error(`${source} must be fs or s3, not "${value}"`)
  return kind
}

/**
 * The settings of the NUXT_* variables (as `npm start` would read them), each
 * replaced by its command-line option when one is given.
 */
export function siteSettings(options: { dataDir?: string, databaseUrl?: string, media?: string } = {}, env: NodeJS.ProcessEnv = process.env): SiteSettings {
  const databaseUrl = (options.databaseUrl ?? env.NUXT_DATABASE_URL ?? '').trim()
  if (databaseUrl && !isPostgresUrl(databaseUrl)) {
    throw new Error(`${options.databaseUrl === undefined ? 'NUXT_DATABASE_URL' : 'The database URL'} must start with postgres:// or postgresql://`)
  }
  const media = options.media === undefined ? mediaKind(env.NUXT_MEDIA_STORAGE, 'NUXT_MEDIA_STORAGE') : mediaKind(options.media, '--media')
  return {
    dataDir: resolve(options.dataDir ?? (env.NUXT_DATA_DIR || './data')),
    databaseUrl,
    media,
    s3: media === 's3' ? s3SettingsFromEnv(env) : undefined,
  }
}

/** The URL without its password, for messages. */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url)
    if (parsed.password) parsed.password = '***'
    return parsed.toString()
  }
  catch {
    return 'the database URL'
  }
}
