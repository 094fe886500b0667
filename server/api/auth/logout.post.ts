import { revokeSession } from '../../services/sessions'

/** POST /api/auth/logout: revokes this session and clears the cookie. */
export default defineEventHandler(async (event) => {
  const actor = await requireUser(event)
  if (actor.sessionId) await revokeSession(useDB(), actor.sessionId)
  clearSessionCookie(event)
  return { success: true }
})
