import { existsSync } from 'node:fs'

/**
 * Runs before 01.bootstrap, so it can still tell a first start (no SQLite
 * file yet; with PostgreSQL, no data dir yet) from a restart. Once the
 * start-up work is done, prints where the data lives and the address to
 * open: Nitro's own "Listening on" line shows the bound address, which for
 * the default HOST is `[::]` or 0.0.0.0, not one a browser opens.
 */
export default defineNitroPlugin(() => {
  if (import.meta.dev || import.meta.prerender) return
  const port = process.env.NITRO_PORT || process.env.PORT || '3000'
  // Node's own refusal of such a port comes later and names something else (a module it could not load).
  if (!/^\d{1,5}$/.test(port) || Number(port) > 65535) {
    console.error(`[start] cannot start: PORT must be a whole number from 0 to 65535, not "${port}"`)
    process.exit(1)
  }
  const config = useRuntimeConfig()
  const postgres = Boolean(config.databaseUrl)
  const https = Boolean(process.env.NITRO_SSL_CERT && process.env.NITRO_SSL_KEY)
  const lines = startBanner({
    dataDir: dataPath(),
    url: openUrl(process.env.NITRO_HOST || process.env.HOST, port, https ? 'https' : 'http'),
    siteUrl: String(config.public.siteUrl),
    firstStart: !existsSync(postgres ? dataPath() : dataPath('app.sqlite')),
    database: postgres ? 'postgresql' : 'sqlite',
    bucket: String(config.mediaStorage).trim().toLowerCase() === 's3' ? String(config.s3.bucket) : undefined,
  })
  // Said once the start-up work is done: a start that fails ends with its own one line.
  reportAfterStart(() => console.info(lines.join('\n')))
})
