/**
 * A worker that answers with the browser's time zone (its IANA name), for the
 * anonymous voter's fingerprint (composables/useVote.ts): the first
 * Intl.DateTimeFormat a thread makes loads the locale's data, and here that
 * happens off the page's main thread.
 */
(globalThis as unknown as { postMessage: (message: string) => void }).postMessage(Intl.DateTimeFormat().resolvedOptions().timeZone)
