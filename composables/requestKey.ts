/** What was last sent with which Idempotency-Key. */
export interface SentWithKey { content: string, key: string }

/**
 * The Idempotency-Key to send `content` with (docs/behaviour.md, Sending
 * again): the last one while the same content is sent again (a retry after
 * "Could not reach the server" answers the first request's answer instead of
 * creating a second upload or comment), a new one once it changes. Made
 * with getRandomValues: crypto.randomUUID exists only in secure contexts,
 * and the site may be served over plain HTTP on a network of its own.
 */
export function requestKeyFor(last: SentWithKey | null | undefined, content: string): SentWithKey {
  if (last && last.content === content) return last
  const key = Array.from(crypto.getRandomValues(new Uint8Array(16)), byte => byte.toString(16).padStart(2, '0')).join('')
  return { content, key }
}

/** Whether a kept value is a SentWithKey (drafts are read back from storage). */
export function isSentWithKey(value: unknown): value is SentWithKey {
  return typeof value === 'object' && value !== null && typeof (value as SentWithKey).content === 'string' && typeof (value as SentWithKey).key === 'string'
}
