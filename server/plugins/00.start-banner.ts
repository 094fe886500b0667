import { existsSync } from 'node:fs'

/**
 * Runs before 01.bootstrap, so it can still tell a first start (no SQLite
 * file yet; with PostgreSQL, no data dir yet) from a restart. Prints where the
 * data lives and the address to open: Nitro's own "Listening on" line shows
 * the bound address, which for the default HOST is `[::]` or 0.0.0.0, not one
 * a browser opens.
 */
export default defineNitroPlugin(() => {
  if (import.meta.dev || import.meta.prerender) return
  const config = useRuntimeConfig()
  const postgres = Boolean(config.databaseUrl)
  const port = process.env.NITRO_PORT || process.env.PORT || 3000
  const https = Boolean(process.env.NITRO_SSL_CERT && process.env.NITRO_SSL_KEY)
  const lines = startBanner({
    dataDir: dataPath(),
    url: openUrl(process.env.NITRO_HOST || process.env.HOST, port, https ? 'https' : 'http'),
    siteUrl: String(config.public.siteUrl),
    firstStart: !existsSync(postgres ? dataPath() : dataPath('app.sqlite')),
    database: postgres ? 'postgresql' : 'sqlite',
    bucket: String(config.mediaStorage).trim().toLowerCase() === 's3' ? String(config.s3.bucket) : undefined,
  })
  console.info(lines.join('\n'))
})
