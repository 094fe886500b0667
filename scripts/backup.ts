/**
 * `npm run backup -- --to <dir>`: a copy of the site that `npm run restore`
 * brings back, taken while the site runs. Reads the same NUXT_* settings as
 * the server (NUXT_DATA_DIR, NUXT_DATABASE_URL, NUXT_MEDIA_STORAGE, NUXT_S3_*).
 * See docs/behaviour.md, "Operations".
 */
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { backupSite } from './lib/site-backup'
import { siteSettings } from './lib/site-settings'
import { failureText } from '../server/database/port'

const USAGE = 'Usage: npm run backup -- --to <new or empty folder> [--data-dir DIR]'

async function main(): Promise<number> {
  let values
  try {
    ({ values } = parseArgs({ options: { 'to': { type: 'string' }, 'data-dir': { type: 'string' }, 'help': { type: 'boolean', short: 'h' } } }))
  }
  catch (error) {
    console.error(`backup: ${(error as Error).message}\n${USAGE}`)
    return 2
  }
  if (values.help) {
    console.info(USAGE)
    return 0
  }
  if (!values.to) {
    console.error(USAGE)
    return 2
  }
  const site = siteSettings({ dataDir: values['data-dir'] })
  const to = resolve(values.to)
  const started = Date.now()
  const manifest = await backupSite(site, to)
  const bytes = manifest.files.reduce((sum, file) => sum + file.size, 0)
  console.info(`Backup of the ${manifest.engine === 'sqlite' ? 'SQLite' : 'PostgreSQL'} site written to ${to} in ${((Date.now() - started) / 1000).toFixed(1)} s (${manifest.files.length} files, ${(bytes / 1048576).toFixed(1)} MB), rows as of ${manifest.takenAt}:`)
  console.info('| table | rows |')
  console.info('|---|---:|')
  for (const [table, rows] of Object.entries(manifest.counts)) console.info(`| ${table} | ${rows} |`)
  console.info(`media: ${manifest.media.objects} file(s) of ${manifest.media.images} image(s) from ${manifest.media.from === 's3' ? 'the bucket' : 'the data dir'}`)
  console.info(manifest.engine === 'sqlite'
    ? `secrets: ${manifest.secrets ? 'secrets.json copied' : 'none in the data dir'}`
    : 'secrets: in the dump (app_secrets)')
  for (const file of manifest.media.missing.slice(0, 10)) console.warn(`media: ${file} is missing: its row is in the copy, its file was gone (deleted while the backup ran, or lost before)`)
  if (manifest.media.missing.length > 10) console.warn(`media: and ${manifest.media.missing.length - 10} more image file(s) missing (listed in manifest.json)`)
  return 0
}

main().then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    console.error(`backup: ${failureText(error)}`)
    process.exitCode = 1
  },
)
