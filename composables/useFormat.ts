/**
 * Dates are written by hand, not by Intl.DateTimeFormat: a page's first
 * formatter loads the locale's data, 20-27 ms (a quarter of the home page's
 * JavaScript time as it loads, in a CPU profile of Chromium; docs/performance.md,
 * "First paint"), and the server and every browser must write the same text for
 * hydration, whatever their ICU. The months are en-GB's short names as
 * Node's ICU writes them ("Sept"), which the site always showed.
 */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sept', 'Oct', 'Nov', 'Dec'] as const

/** "1 Dec 2026": the UTC day of `date`. */
function dayOf(date: Date): string {
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`
}

/** Display helpers shared by the pages. */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return ''
  const time = Date.parse(iso)
  return Number.isNaN(time) ? '' : dayOf(new Date(time))
}

/**
 * A moment to the minute, in UTC like every date on the site ("1 Dec 2026, 16:05 UTC"):
 * the server renders it, and the browser's hydration must read the same text.
 */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return ''
  const time = Date.parse(iso)
  if (Number.isNaN(time)) return ''
  const date = new Date(time)
  const twoDigits = (value: number) => String(value).padStart(2, '0')
  return `${dayOf(date)}, ${twoDigits(date.getUTCHours())}:${twoDigits(date.getUTCMinutes())} UTC`
}

export function formatRating(rating: number | null | undefined): string {
  return rating === null || rating === undefined ? '–' : rating.toFixed(1)
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`
}

/**
 * The "does not fuck" count next to "2 fucks" in a rating's legend: "0 against",
 * "1 against", "3 against" read as a count whatever the number ("0 does not" did not).
 */
export function downvoteCount(count: number): string {
  return `${count} against`
}

/** "1 says it fucks, 2 say it does not": an upload's votes in words. */
export function voteSummary(upvotes: number, downvotes: number): string {
  const say = (count: number) => `${count} ${count === 1 ? 'says' : 'say'}`
  return `${say(upvotes)} it fucks, ${say(downvotes)} it does not`
}

/** A rating bar's width for each side, in percent: "fucks" and "does not fuck" (neither with no votes). */
export function voteShares(stats: { upvotes: number, voteCount: number }): [number, number] {
  if (!stats.voteCount) return [0, 0]
  const yes = Math.round((stats.upvotes / stats.voteCount) * 100)
  return [yes, 100 - yes]
}

/** How long to wait, for "try again in …": seconds under a minute, then whole minutes, then hours (rounded up). */
export function formatWait(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds))
  if (s < 60) return plural(s, 'second')
  if (s < 3600) return plural(Math.ceil(s / 60), 'minute')
  return plural(Math.ceil(s / 3600), 'hour')
}

/** A positive page number from a route query value (1 otherwise). */
export function pageFrom(value: unknown): number {
  const page = Number(Array.isArray(value) ? value[0] : value)
  return Number.isInteger(page) && page > 0 ? page : 1
}

/** The query of a route's full path, with its `?` (empty without one), for a canonical address. */
export function queryOf(fullPath: string): string {
  const path = fullPath.split('#')[0]!
  const at = path.indexOf('?')
  return at === -1 ? '' : path.slice(at)
}

/** Comma-separated tag slugs from a route query value. */
export function tagsFrom(value: unknown): string[] {
  const raw = Array.isArray(value) ? value.join(',') : typeof value === 'string' ? value : ''
  return raw.split(',').map(tag => tag.trim()).filter(Boolean)
}

/**
 * The API's messages say "MFA" (they are part of the API and stay as they
 * are); the pages say "two-step verification". Every message shown to a
 * person passes through here.
 */
const PLAIN_MESSAGES: Record<string, string> = {
  'MFA code required': 'Enter your two-step verification code',
  'MFA code is required': 'Enter your two-step verification code',
  'Invalid MFA code': 'Invalid two-step verification code',
  'MFA is already enabled': 'Two-step verification is already on',
  'MFA is not enabled': 'Two-step verification is not on',
  'MFA setup has not been started': 'Start setting up two-step verification first',
}

export function plainMessage(message: string): string {
  return PLAIN_MESSAGES[message] ?? message.replace(/^MFA\b/, 'Two-step verification').replace(/\bMFA\b/g, 'two-step verification')
}
