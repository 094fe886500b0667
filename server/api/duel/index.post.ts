import { DuelJudgementSchema } from '#shared/schemas/duels'
import { judgeDuel, openDuel, type DuelJudge } from '../../services/duels'

/**
 * POST /api/duel: the caller's choice in a duel from GET /api/duel/next (once
 * per duel, and per caller and pair). A signed-in judge's session is read in
 * the judgement's first statement (docs/database.md, "Few round trips under a lock").
 */
export default defineEventHandler(async (event) => {
  const { input } = await optionalSessionClaims(event, async (session) => {
    const { duelId, winner, clientFingerprint } = await readValidated(event, DuelJudgementSchema)
    const judge: DuelJudge = session ? { userId: session.sub, session } : visitorJudge(event, clientFingerprint)
    return { judge, duel: openDuel(duelSigningKey(), duelId, judge), winner }
  })
  return judgeDuel(useDB(), input.judge, input.duel, input.winner)
})
