import { DuelNextQuerySchema } from '#shared/schemas/duels'
import { nextDuel } from '../../services/duels'

/**
 * GET /api/duel/next: two public images the caller (account, or visitor by fingerprint and IP hash) has not
 * compared yet, without what the caller's lists leave out (`rating=`, and an account's hidden tags and ratings).
 */
export default defineEventHandler(async (event) => {
  await getUser(event)
  const { clientFingerprint, rating } = queryValidated(event, DuelNextQuerySchema)
  const judge = await duelJudgeOf(event, clientFingerprint)
  setCachePolicy(event, 'personal')
  return nextDuel(useDB(), duelSigningKey(), judge, await filterOfCaller(event, rating))
})
