import { runMigrations, type MigrationJournal } from '../database/migrate'
import { sealPlainTotpSecrets, useTotpKey } from '../services/totp-secrets'
import { reclaimUnfinishedUploads } from '../services/uploads'
import { otherServersAlive } from '../utils/data-dir-peers'

/**
 * First thing at start: data dir, media store (a bucket must exist and
 * answer), database schema, secrets (and TOTP secrets still stored in plain
 * encrypted), then the files of uploads a crash interrupted before their row
 * committed. Migrations are
 * bundled as server assets (`drizzle/<dialect>/`), so the built server needs
 * no source tree. Requests wait for this (middleware/00.ready.ts); when it
 * fails the process exits non-zero with one line saying why, rather than
 * listening and answering 500.
 */
export default defineNitroPlugin((nitroApp) => {
  // SIGTERM: Nitro stops accepting connections, lets requests in flight finish,
  // runs the `close` hooks (the pool below) and exits 0; at most 10 s in all.
  process.env.NITRO_SHUTDOWN_TIMEOUT ||= '10000'
  exitOnListenError()
  markStarting(start())
  // An operator sees when a stop began and when it was done (docs/operations.md, Signals).
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => console.info(`[stop] ${signal}: no new connections; finishing the requests in flight (at most ${Number(process.env.NITRO_SHUTDOWN_TIMEOUT) / 1000} s)`))
  }
  nitroApp.hooks.hook('close', async () => {
    // First, while the requests the wait cut off are still known as such.
    logRequestsCutAtShutdown()
    await closeDB()
    await closeRedis()
    flushLog()
    console.info('[stop] stopped: requests done, pools closed')
  })
})

/** A `pending/` marker in a shared bucket older than this is left by a crash, not an upload in flight. */
const RECLAIM_AFTER_MS = 15 * 60_000

async function start(): Promise<void> {
  checkSettings()
  checkLogFormat()
  ensureDataDirs()
  // Asked before this server says it is alive there (server/plugins/temp-sweep.ts).
  const sharedDataDir = otherServersAlive(dataPath())
  const media = mediaStore()
  // A bucket must exist and answer before the first request; the media folder was just made.
  if (media.shared) {
    await media.check().catch((error: unknown) => {
      throw new Error(`media storage: ${(error as Error).message}`)
    })
  }
  // Not a condition to start (the site answers without Redis, per instance),
  // but the first requests should count where every later one does.
  await redisReady(2000)
  const db = useDB()
  const assets = useStorage(`assets:migrations`)
  const folder = db.dialect
  const journal = await assets.getItem<MigrationJournal>(`${folder}:meta:_journal.json`)
  if (!journal) throw new Error('Database migrations are missing from the build')
  const files = new Map<string, string>()
  for (const entry of journal.entries) {
    const text = await assets.getItemRaw(`${folder}:${entry.tag}.sql`)
    files.set(entry.tag, typeof text === 'string' ? text : new TextDecoder().decode(text as Uint8Array))
  }
  const applied = await runMigrations(db, journal, tag => files.get(tag)!)
  // Every migration applied now: the database was empty (a first start, not another instance's or a restore).
  noteNewDatabase(applied === journal.entries.length)
  if (applied > 0) console.info(`[db] applied ${applied} migration(s) (${db.dialect})`)
  const secrets = await loadSecrets(db)
  // nuxt-auth-utils reads runtimeConfig.session.password per request, and Nitro
  // rebuilds that from NUXT_* variables each time: hand it the generated one.
  process.env.NUXT_SESSION_PASSWORD ||= secrets.sessionPassword
  useTotpKey(secrets.totpKey)
  const sealed = await sealPlainTotpSecrets(db)
  if (sealed > 0) console.info(`[start] encrypted ${sealed} TOTP secret(s) stored before encryption at rest`)
  // A bucket is shared, and so is a data dir another live server uses (data-dir-peers.ts): another
  // server's upload may be in flight, so only markers older than any upload are a crash's.
  const reclaimed = await reclaimUnfinishedUploads(db, media, media.shared || sharedDataDir ? RECLAIM_AFTER_MS : 0)
  if (reclaimed > 0) console.info(`[start] removed the files of ${reclaimed} upload(s) a crash interrupted`)
}
