import type { H3Event } from 'h3'
import { duelKey, type DuelJudge } from '../services/duels'
import { hashSignal } from '../services/votes'

/**
 * Who judges a duel: the signed-in account (a cookie sent but not valid is a
 * 401); without a session, the visitor's `clientFingerprint` (400 `Invalid
 * client fingerprint` when missing) and the keyed hash of their IP, as
 * anonymous votes.
 */
export async function duelJudgeOf(event: H3Event, clientFingerprint: string | undefined): Promise<DuelJudge> {
  const actor = await getUser(event)
  return actor ? { userId: actor.id } : visitorJudge(event, clientFingerprint)
}

/** A visitor as a judge: the fingerprint they send (400 `Invalid client fingerprint` when missing) and their IP's keyed hash. */
export function visitorJudge(event: H3Event, clientFingerprint: string | undefined): DuelJudge {
  if (clientFingerprint === undefined) throw badRequest('Invalid client fingerprint')
  return { ipHash: hashSignal(useSecrets().ipHashSecret, clientIp(event)), fingerprint: clientFingerprint }
}

let signing: { secret: string, key: Buffer } | undefined

/** The key that signs duel ids, the same on every instance (derived from the session secret once). */
export function duelSigningKey(): Buffer {
  const { sessionSecret } = useSecrets()
  if (signing?.secret !== sessionSecret) signing = { secret: sessionSecret, key: duelKey(sessionSecret) }
  return signing.key
}
