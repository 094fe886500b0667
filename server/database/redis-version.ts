import { randomUUID } from 'node:crypto'
import type Redis from 'ioredis'
import type { SharedVersion } from './shared-version'

/**
 * The data version of all instances, one Redis key (`<prefix>data-version`).
 * Each bump writes a fresh random value rather than `INCR`: after a Redis
 * restart (no persistence) a counter would start again at 1 and could reach a
 * number some instance still has cached lists under; a random value never
 * comes back.
 *
 * Nothing cached is trusted across a gap in what this instance saw: the
 * version carries an epoch that moves whenever the connection closes or
 * reopens and whenever a read fails, because another instance's bump may
 * have failed meanwhile (its write was committed and answered anyway, and its
 * bump is retried until it gets through). While this instance's own bump is
 * still pending, `read` answers null: its own write must not be missing from
 * its own lists.
 */
export class RedisDataVersion implements SharedVersion {
  private epoch = 0
  private pending = false
  private retry: NodeJS.Timeout | undefined

  constructor(private readonly redis: Redis, private readonly key: string) {
    redis.on('close', () => {
      this.epoch++
    })
    redis.on('ready', () => {
      this.epoch++
      void this.flush()
    })
  }

  async bump(): Promise<void> {
    this.pending = true
    await this.flush()
  }

  async read(): Promise<string | null> {
    if (this.pending && !(await this.flush())) return null
    const epoch = this.epoch
    try {
      const value = await this.redis.get(this.key)
      return epoch === this.epoch ? `${epoch}:${value ?? '-'}` : null
    }
    catch {
      this.epoch++
      return null
    }
  }

  /** Writes a pending bump; on failure keeps it pending and tries again every second. */
  private async flush(): Promise<boolean> {
    if (!this.pending) return true
    this.pending = false
    try {
      await this.redis.set(this.key, randomUUID())
      return true
    }
    catch {
      this.pending = true
      this.retry ??= setTimeout(() => {
        this.retry = undefined
        void this.flush()
      }, 1000).unref()
      return false
    }
  }
}
