import { enableMetrics, scrapedGauge } from '../services/metrics'
import { imageQueueState } from '../services/media'

/**
 * Metrics on when `NUXT_METRICS_TOKEN` is set (GET /metrics, server/routes/metrics.get.ts),
 * with the gauges read at each scrape: the image slot and its queues, the
 * database pool, Redis. The log's last lines are written out at shutdown.
 */
export default defineNitroPlugin((nitroApp) => {
  nitroApp.hooks.hook('close', flushLog)
  if (!String(useRuntimeConfig().metricsToken || '')) return
  enableMetrics()
  scrapedGauge('dif_image_slots_busy', 'Images being decoded now (at most the number of image slots)', [], (gauge) => {
    gauge.set(imageQueueState().busy)
  })
  scrapedGauge('dif_image_queue_depth', 'Images waiting for the image slot: requests (refused beyond 4) and background work', ['queue'], (gauge) => {
    const { waiting, background } = imageQueueState()
    gauge.set({ queue: 'request' }, waiting)
    gauge.set({ queue: 'background' }, background)
  })
  scrapedGauge('dif_db_pool_connections', 'Database connections: PostgreSQL\'s pool (total, idle, requests waiting for one); SQLite has one, never waited for', ['engine', 'state'], (gauge) => {
    const db = useDB()
    const pool = 'pool' in db ? (db as { pool: { totalCount: number, idleCount: number, waitingCount: number } }).pool : undefined
    const engine = db.dialect
    gauge.set({ engine, state: 'total' }, pool ? pool.totalCount : 1)
    gauge.set({ engine, state: 'idle' }, pool ? pool.idleCount : 1)
    gauge.set({ engine, state: 'waiting' }, pool ? pool.waitingCount : 0)
  })
  scrapedGauge('dif_redis_connected', 'Redis connection ready (1) or not (0, also when NUXT_REDIS_URL is not set)', [], (gauge) => {
    gauge.set(useRedis()?.status === 'ready' ? 1 : 0)
  })
})
