/**
 * The address to open in a browser for a server listening on `host`:`port`
 * (Nitro's HOST/PORT). A wildcard address (0.0.0.0, ::, unset) is not one a
 * browser can open, so it becomes localhost. Port 0 is not known here.
 */
export function openUrl(host: string | undefined, port: number | string, protocol: 'http' | 'https' = 'http'): string {
  const bare = (host ?? '').trim().replace(/^\[(.*)\]$/, '$1')
  const wildcard = bare === '' || bare === '0.0.0.0' || bare === '::' || bare === '::0' || /^(0+:){2,7}0*$/.test(bare)
  const name = wildcard ? 'localhost' : bare.includes(':') ? `[${bare}]` : bare
  // PORT=0 takes any free port, known only once listening: Nitro's "Listening on" line names it.
  if (Number(port) === 0) return `${protocol}://${name}:<port> (PORT=0: the port of the "Listening on" line above)`
  return `${protocol}://${name}:${port}`
}

export interface StartInfo {
  dataDir: string
  url: string
  siteUrl: string
  firstStart: boolean
  database: 'sqlite' | 'postgresql'
  /** The bucket when media are kept in S3 (NUXT_MEDIA_STORAGE=s3); else media/ in the data dir. */
  bucket?: string
  /** Redis's `host:port` when one is set (NUXT_REDIS_URL). */
  redis?: string
}

/** What the server prints at start: where the data lives, what to open, and (first start) how to become admin. */
export function startBanner(info: StartInfo): string[] {
  const site = info.siteUrl.replace(/\/$/, '') === info.url ? [] : [`  Site URL: ${info.siteUrl} (NUXT_PUBLIC_SITE_URL: links in e-mails, OAuth)`]
  const media = info.bucket ? '' : 'media/, '
  let where = info.database === 'postgresql'
    ? `${info.dataDir} (${media}outbox/); database and secrets: PostgreSQL (NUXT_DATABASE_URL)`
    : `${info.dataDir} (database app.sqlite, ${media}outbox/, secrets.json)`
  if (info.bucket) where += `; media: bucket "${info.bucket}" (NUXT_MEDIA_STORAGE=s3)`
  if (info.redis) where += `; Redis: ${info.redis} (NUXT_REDIS_URL)`
  if (!info.firstStart) return [`Does It Fuck? · data: ${where} · open ${info.url}`]
  return [
    'Does It Fuck? · first start',
    `  Data:     ${where}`,
    `  Open:     ${info.url}`,
    ...site,
    '  Admin:    register an account on the site, then run: npm run admin -- grant <email>',
    '            (or list admin e-mails in NUXT_ADMIN_EMAILS)',
  ]
}
