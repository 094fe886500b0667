import { setResponseHeader, setResponseStatus } from 'h3'
import { checkHealth } from '../services/health'

/** GET /api/health: 200 when every configured part answers, 503 with the same shape when one does not. */
export default defineEventHandler(async (event) => {
  const health = await checkHealth(useDB(), mediaStore(), useRedis(), dataPath('tmp'))
  setResponseHeader(event, 'Cache-Control', 'no-store')
  if (health.status !== 'ok') setResponseStatus(event, 503, 'Service Unavailable')
  return health
})
