import { DeleteAccountSchema } from '#shared/schemas/own-data'
import { deleteAccount } from '../services/own-data'

/** DELETE /api/profile (cookie): confirmed by password (and MFA code), removes the account and all it owns. */
export default defineEventHandler(async (event) => {
  const actor = await requireUser(event)
  const input = await readValidated(event, DeleteAccountSchema)
  const result = await deleteAccount(useDB(), actor, input, mediaStore())
  clearSessionCookie(event)
  return result
})
