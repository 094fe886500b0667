import type { H3Event } from 'h3'
import * as v from 'valibot'
import { badRequest } from '../services/errors'
import { keepAnswer, keptAnswer, keyKept, REUSED_KEY_MESSAGE, requestFingerprint, RequestKeyTaken, reusedKeyError, type KeepAnswer, type KeyedRequest } from '../services/request-keys'
import { enforceRateLimit, refundRateLimit, type Uncounted } from './rate-limit'
import { requestHeader } from './request-header'

/** An Idempotency-Key: 1 to 255 visible ASCII characters, bare or as a quoted string. */
const KEY = /^(?:"([\x21\x23-\x7E]{1,255})"|([\x21\x23-\x7E]{1,255}))$/

/** The header as the OpenAPI description gives it (params.header of a create). */
export const IdempotencyKeyHeaderSchema = v.object({
  'Idempotency-Key': v.optional(v.pipe(v.string(), v.regex(KEY), v.description(
    'Any unique value per new upload or comment (a random UUID), 1 to 255 visible ASCII characters. Sending the same request again with it within a day '
    + 'answers what the first one answered (201, header `Idempotent-Replayed: true`) and creates nothing; the same key with a different request is a 409.'))),
})

/** The request's Idempotency-Key, undefined when it sent none; 400 when it is not one. */
export function idempotencyKey(event: H3Event): string | undefined {
  const header = requestHeader(event, 'idempotency-key')
  if (header === undefined) return undefined
  const match = KEY.exec(header.trim())
  if (!match) throw badRequest('Idempotency-Key must be 1 to 255 visible ASCII characters')
  return match[1] ?? match[2]
}

/**
 * Runs a create once per Idempotency-Key (docs/behaviour.md, Sending again).
 * Without the header, `create` runs as it is. With it, an answer kept for
 * the key is replayed (`Idempotent-Replayed: true`, the create's status)
 * without running anything, and not counted in its rate limit (limitAccount
 * looks the key up before counting); otherwise `create` runs and hands its answer to
 * `keep` inside its transaction. When `create` fails because the same
 * request, sent at the same time, committed first (its key, or an image
 * refused as a duplicate of its own), that request's answer is replayed.
 * `sent` is what the request sent, validated: the same key with anything
 * else is a 409.
 */
export async function answerOnce<T>(event: H3Event, userId: string, sent: unknown, create: (keep: KeepAnswer | undefined) => Promise<T>): Promise<T> {
  const key = idempotencyKey(event)
  if (key === undefined) return create(undefined)
  const request: KeyedRequest = { userId, key, fingerprint: requestFingerprint(event.method, event.path, sent) }
  const db = useDB()
  const earlier = await keptAnswer(db, request).catch(async (error: unknown) => {
    // Refused as another request's key: counted after all, as a request that is no replay (429 first when over).
    const uncounted = event.context.uncounted as Uncounted | undefined
    if (uncounted) await enforceRateLimit(event, uncounted.category, uncounted.key)
    throw error
  })
  if (earlier !== undefined) return await replayed(event, earlier)
  try {
    return await create((tx, answer) => keepAnswer(tx, request, answer))
  }
  catch (error) {
    let kept: unknown
    try {
      kept = await keptAnswer(db, request)
    }
    catch (lookup) {
      // Kept meanwhile for another request: the same key sent at once with other fields.
      if ((lookup as Error).message === REUSED_KEY_MESSAGE) throw lookup
    }
    if (kept !== undefined) return await replayed(event, kept)
    if (error instanceof RequestKeyTaken) throw reusedKeyError()
    throw error
  }
}

/** Whether the request's Idempotency-Key has a kept answer for `userId` (its replay is not counted in the rate limits). */
export async function hasKeptAnswer(event: H3Event, userId: string): Promise<boolean> {
  const key = idempotencyKey(event)
  return key !== undefined && await keyKept(useDB(), userId, key)
}

/** A kept answer, sent again: it created nothing, so it is not counted in UPLOAD or COMMENT, nor as a create in the metrics. */
async function replayed<T>(event: H3Event, answer: unknown): Promise<T> {
  event.node.res.setHeader('idempotent-replayed', 'true')
  event.context.replayed = true
  // Kept meanwhile by the same request sent at once: this one was counted before it knew.
  await refundRateLimit(event)
  return answer as T
}
