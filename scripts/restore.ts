/**
 * `npm run restore -- --from <dir> [--to <data dir or postgres url>] [--data-dir DIR] [--media fs|s3]`:
 * brings back a site written by `npm run backup` into an empty target,
 * after checking every file against the manifest. Without options the
 * target is what the server would use (NUXT_DATA_DIR, NUXT_DATABASE_URL,
 * NUXT_MEDIA_STORAGE, NUXT_S3_*). See docs/behaviour.md, "Operations".
 */
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { restoreSite } from './lib/site-backup'
import { isPostgresUrl, siteSettings } from './lib/site-settings'
import { failureText } from '../server/database/port'

const USAGE = 'Usage: npm run restore -- --from <backup folder> [--to <data dir or postgres url>] [--data-dir DIR] [--media fs|s3]'

async function main(): Promise<number> {
  let values
  try {
    ({ values } = parseArgs({ options: { 'from': { type: 'string' }, 'to': { type: 'string' }, 'data-dir': { type: 'string' }, 'media': { type: 'string' }, 'help': { type: 'boolean', short: 'h' } } }))
  }
  catch (error) {
    console.error(`restore: ${(error as Error).message}\n${USAGE}`)
    return 2
  }
  if (values.help) {
    console.info(USAGE)
    return 0
  }
  if (!values.from) {
    console.error(USAGE)
    return 2
  }
  const to = values.to?.trim()
  const toUrl = to !== undefined && isPostgresUrl(to)
  const site = siteSettings({
    dataDir: toUrl ? values['data-dir'] : to ?? values['data-dir'],
    databaseUrl: toUrl ? to : to !== undefined ? '' : undefined,
    media: values.media,
  })
  const started = Date.now()
  const report = await restoreSite(resolve(values.from), site)
  console.info(`Restored the backup of ${report.manifest.takenAt} in ${((Date.now() - started) / 1000).toFixed(1)} s into ${report.where.database}:`)
  console.info('| table | backup rows | restored rows |')
  console.info('|---|---:|---:|')
  for (const row of report.rows) console.info(`| ${row.table} | ${row.backup} | ${row.restored} |`)
  console.info(`media: ${report.objects} file(s) written to ${report.where.media} and read back with the manifest's SHA-256`)
  console.info(report.manifest.engine === 'sqlite'
    ? `secrets: ${report.manifest.secrets ? 'secrets.json restored (sessions stay valid)' : 'none in the backup (new ones are generated at start: everyone signs in again)'}`
    : 'secrets: restored with the rows (app_secrets; sessions stay valid)')
  console.info(report.manifest.engine === 'sqlite'
    ? `Start the site with NUXT_DATA_DIR=${site.dataDir}${site.media === 's3' ? ' and these NUXT_S3_* settings' : ''}.`
    : `Start the site with NUXT_DATABASE_URL set to the restored database${site.media === 's3' ? ', NUXT_MEDIA_STORAGE=s3 and these NUXT_S3_* settings' : ` and NUXT_DATA_DIR=${site.dataDir}`}.`)
  return 0
}

main().then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    console.error(`restore: ${failureText(error)}`)
    process.exitCode = 1
  },
)
