import { IdParamsSchema } from '#shared/schemas/common'
import { revokeUserSession } from '../../../services/sessions'

/** DELETE /api/auth/sessions/{id} (cookie): revokes one of the caller's sessions; the current one also loses its cookie. */
export default defineEventHandler(async (event) => {
  const actor = await requireUser(event)
  const { id } = paramsValidated(event, IdParamsSchema)
  const result = await revokeUserSession(useDB(), actor.id, id)
  if (id === actor.sessionId) clearSessionCookie(event)
  return result
})
