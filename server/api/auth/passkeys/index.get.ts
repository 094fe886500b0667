import { listPasskeys } from '../../../services/passkeys'

/** GET /api/auth/passkeys (cookie): the caller's passkeys, never key material. */
export default defineEventHandler(async (event) => {
  const actor = await requireUser(event)
  setCachePolicy(event, 'personal')
  return listPasskeys(useDB(), actor.id)
})
