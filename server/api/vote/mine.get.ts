import { MyVotesQuerySchema } from '#shared/schemas/votes'
import { votesOf } from '../../services/votes'

/** GET /api/vote/mine?uploadIds=: the caller's votes on a page of uploads (blind voting shows their counts). */
export default defineEventHandler(async (event) => {
  const actor = await requireUser(event)
  const { uploadIds } = queryValidated(event, MyVotesQuerySchema)
  setCachePolicy(event, 'personal')
  return votesOf(useDB(), actor, uploadIds)
})
