import { NextUnvotedQuerySchema } from '#shared/schemas/lists'
import { hiddenTagsOf, nextUnvoted } from '../../services/lists'
import { hashSignal } from '../../services/votes'

/** GET /api/vote/next: the newest public upload the caller (account, or visitor by IP hash and fingerprint) has not voted on. */
export default defineEventHandler(async (event) => {
  const actor = await getOptionalUser(event)
  const { clientFingerprint } = queryValidated(event, NextUnvotedQuerySchema)
  setCachePolicy(event, 'personal')
  const db = useDB()
  if (actor) return nextUnvoted(db, { userId: actor.id, hiddenTags: await hiddenTagsOf(db, actor.id) })
  if (clientFingerprint === undefined) throw badRequest('Invalid client fingerprint')
  return nextUnvoted(db, { ipHash: hashSignal(useSecrets().ipHashSecret, clientIp(event)), fingerprint: clientFingerprint })
})
