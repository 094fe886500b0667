import { NextUnvotedQuerySchema } from '#shared/schemas/lists'
import { nextToVote } from '../../services/lists'
import { hashSignal } from '../../services/votes'

/**
 * GET /api/vote/next: the newest public upload the caller (account, or visitor by IP hash and
 * fingerprint) has not voted on, without what the caller's lists leave out (`rating=`, and an
 * account's hidden tags and hidden ratings).
 */
export default defineEventHandler(async (event) => {
  const actor = await getOptionalUser(event)
  const { clientFingerprint, rating } = queryValidated(event, NextUnvotedQuerySchema)
  setCachePolicy(event, 'personal')
  const filter = await filterOfCaller(event, rating)
  if (actor) return nextToVote(useDB(), { userId: actor.id }, filter)
  if (clientFingerprint === undefined) throw badRequest('Invalid client fingerprint')
  return nextToVote(useDB(), { ipHash: hashSignal(useSecrets().ipHashSecret, clientIp(event)), fingerprint: clientFingerprint }, filter)
})
