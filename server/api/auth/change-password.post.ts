import { ChangePasswordSchema } from '#shared/schemas/auth'
import { changePassword } from '../../services/passwords'

/** POST /api/auth/change-password (cookie): new password; the caller's other sessions end. */
export default defineEventHandler(async (event) => {
  const actor = await requireUser(event)
  const input = await readValidated(event, ChangePasswordSchema)
  return changePassword(useDB(), actor, input)
})
