import { constants } from 'node:fs'
import { access } from 'node:fs/promises'
import type { Database } from '../database/port'

export type PartHealth = 'ok' | 'error'

export interface Health {
  status: PartHealth
  database: PartHealth
  redis: PartHealth | 'off'
  storage: PartHealth
}

/** Resolves true when `check` settles within `ms` without throwing. */
async function passes(check: () => Promise<unknown>, ms = 2000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined
  try {
    await Promise.race([check(), new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error('timed out')), ms)
    })])
    return true
  }
  catch {
    return false
  }
  finally {
    clearTimeout(timer)
  }
}

/**
 * GET /api/health: each configured part answers within 2 s, or is `error`
 * (and the whole answer then too). Media on local disk: the folder is writable.
 * Redis is `off` when none is configured (`redis` null), else it must answer PING.
 */
export async function checkHealth(db: Database, mediaDir: string, redis: { ping(): Promise<unknown> } | null = null): Promise<Health> {
  const [database, storage, shared] = await Promise.all([
    passes(() => db.ping()),
    passes(() => access(mediaDir, constants.W_OK)),
    redis ? passes(() => redis.ping()) : null,
  ])
  const parts = {
    database: database ? 'ok' : 'error',
    redis: shared === null ? 'off' : shared ? 'ok' : 'error',
    storage: storage ? 'ok' : 'error',
  } as const
  return { status: database && storage && shared !== false ? 'ok' : 'error', ...parts }
}
