import { openDatabase } from '../database/connection'
import type { Database } from '../database/port'
import { RedisDataVersion } from '../database/redis-version'
import { withSharedVersion } from '../database/shared-version'

let database: Database | undefined

/**
 * The data-access port of this process: PostgreSQL when `NUXT_DATABASE_URL`
 * is set, else the embedded SQLite file `<data>/app.sqlite`. With Redis
 * (`NUXT_REDIS_URL`) its data version is the one all instances share, bumped
 * after every write this process commits (the list cache keys on it).
 */
export function useDB(): Database {
  if (!database) {
    const config = useRuntimeConfig()
    ensureDataDirs()
    const db = openDatabase({ url: String(config.databaseUrl || ''), sqliteFile: dataPath('app.sqlite'), poolMax: Number(config.databasePoolMax) || 10 })
    const redis = useRedis()
    database = redis ? withSharedVersion(db, new RedisDataVersion(redis, `${redisPrefix()}data-version`)) : db
  }
  return database
}

/** Closes the pool or file (at shutdown). */
export async function closeDB(): Promise<void> {
  const open = database
  database = undefined
  await open?.close()
}
