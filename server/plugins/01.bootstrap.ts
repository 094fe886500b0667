import { runMigrations, type MigrationJournal } from '../database/migrate'

/**
 * First thing at start: data dir, secrets, database schema. Migrations are
 * bundled as server assets (`drizzle/`), so the built server needs no source tree.
 */
export default defineNitroPlugin(async () => {
  ensureDataDirs()
  const secrets = useSecrets()
  const assets = useStorage('assets:migrations')
  const journal = await assets.getItem<MigrationJournal>('meta:_journal.json')
  if (!journal) throw new Error('Database migrations are missing from the build')
  const files = new Map<string, string>()
  for (const entry of journal.entries) {
    const sql = await assets.getItemRaw(`${entry.tag}.sql`)
    files.set(entry.tag, typeof sql === 'string' ? sql : new TextDecoder().decode(sql as Uint8Array))
  }
  const applied = runMigrations(useSqlite(), journal, tag => files.get(tag)!)
  if (applied > 0) console.info(`[db] applied ${applied} migration(s)`)

  // nuxt-auth-utils reads runtimeConfig.session.password per request, and Nitro
  // rebuilds that from NUXT_* variables each time: hand it the generated one.
  process.env.NUXT_SESSION_PASSWORD ||= secrets.sessionPassword
})
