import { mkdir, open, unlink } from 'node:fs/promises'
import { join } from 'node:path'
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
 * A file can be made in `dir`, where every upload is received first (on S3
 * too): a probe file written and removed. Permissions alone say nothing when
 * the server runs as root; a read-only file system or a file in the folder's
 * place fail here. A folder removed while the server runs is made again.
 */
export async function checkScratch(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true })
  const probe = join(dir, `health-${process.pid}-${Math.random().toString(36).slice(2)}`)
  await (await open(probe, 'wx')).close()
  await unlink(probe)
}

/**
 * GET /api/health: each configured part answers within 2 s, or is `error`
 * (and the whole answer then too). Storage: the media folder is writable, or
 * the bucket answers a HEAD, and a file can be made in the temporary folder
 * (`scratch`, <data>/tmp).
 * Redis is `off` when none is configured (`redis` null), else it must answer PING.
 */
export async function checkHealth(db: Database, media: Pick<MediaStore, 'check'>, redis: { ping(): Promise<unknown> } | null = null, scratch?: string): Promise<Health> {
  const [database, storage, shared] = await Promise.all([
    passes(() => db.ping()),
    passes(() => Promise.all([media.check(), scratch === undefined ? null : checkScratch(scratch)])),
    redis ? passes(() => redis.ping()) : null,
  ])
  const parts = {
    database: database ? 'ok' : 'error',
    redis: shared === null ? 'off' : shared ? 'ok' : 'error',
    storage: storage ? 'ok' : 'error',
  } as const
  return { status: database && storage && shared !== false ? 'ok' : 'error', ...parts }
}
