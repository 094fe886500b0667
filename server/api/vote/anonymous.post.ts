import { getRequestHeader } from 'h3'
import { AnonymousVoteSchema } from '#shared/schemas/votes'
import { castAnonymousVote } from '../../services/votes'

/** POST /api/vote/anonymous: one vote per visitor (hashed IP, fingerprint); 409 when already voted. */
export default defineEventHandler(async (event) => {
  const input = await readValidated(event, AnonymousVoteSchema)
  const voter = { ip: clientIp(event), userAgent: getRequestHeader(event, 'user-agent'), secret: useSecrets().ipHashSecret }
  return castAnonymousVote(useDB(), voter, input)
})
