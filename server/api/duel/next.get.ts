import { DuelNextQuerySchema } from '#shared/schemas/duels'
import { nextDuel } from '../../services/duels'

/** GET /api/duel/next: two public images the caller (account, or visitor by fingerprint and IP hash) has not compared yet. */
export default defineEventHandler(async (event) => {
  await getUser(event)
  const { clientFingerprint } = queryValidated(event, DuelNextQuerySchema)
  const judge = await duelJudgeOf(event, clientFingerprint, { withHiddenTags: true })
  setCachePolicy(event, 'personal')
  return nextDuel(useDB(), duelSigningKey(), judge)
})
