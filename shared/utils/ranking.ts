/**
 * The list rankings (docs/behaviour.md, Voting flow and feeds), with
 * u = upvotes and d = downvotes. The database keeps the same formulas as
 * generated columns of `uploads` (server/database/schema.ts and its twin),
 * so a page of any ranking is read from an index; these functions are the
 * reference the unit tests hold both to.
 */

export const SORTS = ['new', 'top', 'hot', 'best', 'divisive', 'favourites'] as const
export type Sort = typeof SORTS[number]

export const PERIODS = ['day', 'week', 'month', 'year', 'all'] as const
export type Period = typeof PERIODS[number]

/** Sorts that take a period; `new` and `hot` ignore it. */
export const PERIOD_SORTS: readonly Sort[] = ['top', 'best', 'divisive', 'favourites']

/** The names the sort tabs and the period menu show. */
export const SORT_LABELS: Record<Sort, string> = { new: 'New', hot: 'Hot', top: 'Top', best: 'Best', divisive: 'Divisive', favourites: 'Favourites' }
export const PERIOD_LABELS: Record<Period, string> = { day: 'Today', week: 'This week', month: 'This month', year: 'This year', all: 'All time' }

/** A list's ranking as said to a screen reader when it changes: "New", "Top, this week". */
export function rankingLabel(sort: Sort, period: Period): string {
  return PERIOD_SORTS.includes(sort) ? `${SORT_LABELS[sort]}, ${PERIOD_LABELS[period].toLowerCase()}` : SORT_LABELS[sort]
}

/** Length of each period; `all` has none. */
export const PERIOD_MS: Record<Period, number | null> = {
  day: 24 * 3600 * 1000,
  week: 7 * 24 * 3600 * 1000,
  month: 30 * 24 * 3600 * 1000,
  year: 365 * 24 * 3600 * 1000,
  all: null,
}

/** The hot ranking's epoch (Unix seconds) and the seconds one order of magnitude of net votes is worth. */
export const HOT_EPOCH = 1_700_000_000
export const HOT_SECONDS_PER_DECADE = 45_000

/** z of the Wilson interval (95 %). */
export const WILSON_Z = 1.96

/** sign(u−d)·log10(max(|u−d|,1)) + (created_at in Unix seconds − 1700000000)/45000. */
export function hotScore(up: number, down: number, createdAt: string): number {
  const net = up - down
  return Math.sign(net) * Math.log10(Math.max(Math.abs(net), 1)) + (Date.parse(createdAt) / 1000 - HOT_EPOCH) / HOT_SECONDS_PER_DECADE
}

/** Lower bound of the Wilson score interval of u/(u+d) at z = 1.96; 0 with no votes. */
export function bestScore(up: number, down: number): number {
  const n = up + down
  if (n === 0) return 0
  const p = up / n
  const z2 = WILSON_Z * WILSON_Z
  return (p + z2 / (2 * n) - WILSON_Z * Math.sqrt((p * (1 - p) + z2 / (4 * n)) / n)) / (1 + z2 / n)
}

/** (u+d)^(min(u,d)/max(u,d)); 0 when u or d is 0. */
export function divisiveScore(up: number, down: number): number {
  if (up === 0 || down === 0) return 0
  return (up + down) ** (Math.min(up, down) / Math.max(up, down))
}

/**
 * The lower bound of `created_at` for a period, as ISO text, or null for
 * `all`. Rounded down to the minute, so one minute's requests share an
 * answer (and a cache entry).
 */
export function periodStart(period: Period, now = Date.now()): string | null {
  const length = PERIOD_MS[period]
  if (length === null) return null
  return new Date(Math.floor(now / 60_000) * 60_000 - length).toISOString()
}
