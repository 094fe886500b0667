import type { Database } from '../database/port'
import type { MediaStore } from './media-store'

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
 * (and the whole answer then too). Media: the folder is writable, or the
 * bucket answers a HEAD.
 * Redis is `off` when none is configured (`redis` null), else it must answer PING.
 */
export async function checkHealth(db: Database, media: Pick<MediaStore, 'check'>, redis: { ping(): Promise<unknown> } | null = null): Promise<Health> {
  const [database, storage, shared] = await Promise.all([
    passes(() => db.ping()),
    passes(() => media.check()),
    redis ? passes(() => redis.ping()) : null,
  ])
  const parts = {
    database: database ? 'ok' : 'error',
    redis: shared === null ? 'off' : shared ? 'ok' : 'error',
    storage: storage ? 'ok' : 'error',
  } as const
  return { status: database && storage && shared !== false ? 'ok' : 'error', ...parts }
}
