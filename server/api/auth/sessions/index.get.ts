import { listSessions } from '../../../services/sessions'

/** GET /api/auth/sessions (cookie): the caller's live sessions, the current one marked. */
export default defineEventHandler(async (event) => {
  const actor = await requireUser(event)
  setCachePolicy(event, 'personal')
  return listSessions(useDB(), actor.id, actor.sessionId)
})
