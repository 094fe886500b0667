import { setResponseHeader } from 'h3'
import { exportAccount } from '../../services/own-data'

/** GET /api/profile/export (cookie): the caller's own data as a JSON download. */
export default defineEventHandler(async (event) => {
  const actor = await requireUser(event)
  setCachePolicy(event, 'personal')
  setResponseHeader(event, 'content-disposition', `attachment; filename="does-it-fuck-${actor.username}.json"`)
  return exportAccount(useDB(), actor, siteOrigin())
})
