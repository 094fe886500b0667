import { DuelJudgementSchema } from '#shared/schemas/duels'
import { judgeDuel } from '../../services/duels'

/** POST /api/duel: the caller's choice in a duel from GET /api/duel/next (once per duel, and per caller and pair). */
export default defineEventHandler(async (event) => {
  await getUser(event)
  const input = await readValidated(event, DuelJudgementSchema)
  const judge = await duelJudgeOf(event, input.clientFingerprint)
  return judgeDuel(useDB(), duelSigningKey(), judge, input)
})
