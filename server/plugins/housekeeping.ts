import { sweepEndedRows } from '../services/housekeeping'

/**
 * How often each instance removes rows no request can use any more. A pass scans `sessions`
 * and `request_keys` whole (neither has an index on its times: both stay small once swept),
 * one statement of at most 1,000 rows at a time.
 */
const SWEEP_EVERY_MS = 60 * 60_000

/**
 * Removes ended sessions, expired links and challenges, and Idempotency-Keys
 * past their day (server/services/housekeeping.ts): once the start-up work
 * is done, then every hour. Every instance sweeps; a row two remove at once
 * is removed once. A failing pass is logged once until one succeeds again.
 */
export default defineNitroPlugin((nitroApp) => {
  let timer: NodeJS.Timeout | undefined
  let failing = false
  const pass = async () => {
    try {
      const removed = await sweepEndedRows(useDB())
      const counts = Object.entries(removed).map(([table, count]) => `${table} ${count}`)
      if (counts.length) console.info(`[housekeeping] removed rows no request can use any more: ${counts.join(', ')}`)
      failing = false
    }
    catch (error) {
      if (!failing) console.warn(`[housekeeping] could not remove ended rows: ${(error as Error).message}`)
      failing = true
    }
  }
  serverStarted().then(() => {
    timer = setInterval(pass, SWEEP_EVERY_MS)
    timer.unref()
    void pass()
  }, () => { /* the start failed: the process is ending */ })
  nitroApp.hooks.hook('close', () => {
    clearInterval(timer)
  })
})
