/**
 * Once the start-up work is done, prints where the data lives and the
 * address to open (Nitro's own "Listening on" line shows the bound address,
 * which for the default HOST is `[::]` or 0.0.0.0, not one a browser
 * opens), and on a first start (the database made from nothing, not a
 * second instance's or a restored one) how to become admin.
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
  const info = {
    dataDir: dataPath(),
    url: openUrl(process.env.NITRO_HOST || process.env.HOST, port, https ? 'https' : 'http'),
    siteUrl: String(config.public.siteUrl),
    database: postgres ? 'postgresql' as const : 'sqlite' as const,
    bucket: String(config.mediaStorage).trim().toLowerCase() === 's3' ? String(config.s3.bucket) : undefined,
    redis: redisShown(String(config.redisUrl || '')),
  }
  // Said once the start-up work is done: a start that fails ends with its own one line.
  reportAfterStart(() => console.info(startBanner({ ...info, firstStart: databaseWasNew() }).join('\n')))
})

/** Where Redis is, without its password: `host:port`, or undefined when none is set. */
function redisShown(url: string): string | undefined {
  if (!url) return undefined
  try {
    const parsed = new URL(url)
    return `${parsed.hostname}:${parsed.port || '6379'}`
  }
  catch {
    return undefined
  }
}
