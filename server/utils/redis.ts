import Redis from 'ioredis'

let client: Redis | null | undefined

/**
 * The shared Redis of this process (`NUXT_REDIS_URL`), or null when none is
 * configured (everything stays in process memory). Commands fail at once
 * while the connection is down instead of queueing (`enableOfflineQueue:
 * false`) or after 1 s on a stalled server (`commandTimeout`), so callers fall
 * back at once: rate limits per instance (the list cache never uses Redis: it
 * follows the database's version). The client reconnects by itself, every 2 s
 * at most, for as long as the process runs.
 */
export function useRedis(): Redis | null {
  if (client === undefined) {
    const url = String(useRuntimeConfig().redisUrl || '').trim()
    client = url ? connect(url) : null
  }
  return client
}

/** Prefix of every key this site writes (`NUXT_REDIS_PREFIX`), so sites and test runs can share one Redis. */
export function redisPrefix(): string {
  return String(useRuntimeConfig().redisPrefix ?? 'dif:')
}

/** Resolves when the connection is ready or after `ms`, whichever comes first; never throws. */
export async function redisReady(ms: number): Promise<void> {
  const redis = useRedis()
  if (!redis || redis.status === 'ready') return
  let timer: NodeJS.Timeout | undefined
  await new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms)
    redis.once('ready', resolve)
  })
  clearTimeout(timer)
}

/** Closes the connection (at shutdown). */
export async function closeRedis(): Promise<void> {
  const open = client
  client = undefined
  if (!open) return
  try {
    await open.quit()
  }
  catch {
    open.disconnect()
  }
}

function connect(url: string): Redis {
  if (!/^rediss?:\/\//.test(url)) throw new Error('NUXT_REDIS_URL must start with redis:// or rediss://')
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    commandTimeout: 1000,
    connectTimeout: 2000,
    maxRetriesPerRequest: 1,
    retryStrategy: times => Math.min(times * 100, 2000),
  })
  // One line when Redis goes away and one when it is back, not one per retry.
  let down = false
  redis.on('error', (error: Error) => {
    if (down) return
    down = true
    console.warn(`[redis] unreachable (${error.message}): rate limits count per instance until it is back`)
  })
  redis.on('ready', () => {
    if (!down) return
    down = false
    console.info('[redis] connected again')
  })
  return redis
}
