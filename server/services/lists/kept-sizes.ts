/** Sizes a list reads to choose its way to a page, kept for a minute. */
import type { Executor } from '../../database/port'

/**
 * Counts kept for a minute by key (at most KEPT_COUNTS keys; the oldest go
 * first), apart for each database, so a process that opens several (`npm run
 * bench:scale`, one per size) never reads one's counts for another's.
 */
export class KeptCounts {
  private readonly byDatabase = new WeakMap<Executor, Map<string, { count: number, until: number }>>()

  get(db: Executor, key: string, now: number): number | undefined {
    const kept = this.byDatabase.get(db)?.get(key)
    return kept && kept.until > now ? kept.count : undefined
  }

  set(db: Executor, key: string, count: number, now: number): void {
    let counts = this.byDatabase.get(db)
    if (!counts) this.byDatabase.set(db, counts = new Map())
    counts.delete(key)
    if (counts.size >= KEPT_COUNTS) counts.delete(counts.keys().next().value!)
    counts.set(key, { count, until: now + KEPT_COUNT_TTL_MS })
  }
}
const KEPT_COUNTS = 10_000
const KEPT_COUNT_TTL_MS = 60_000
