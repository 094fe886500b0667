import type { H3Event } from 'h3'
import { send, setResponseHeader, setResponseStatus } from 'h3'
import { DatabaseUnavailableError } from '../database/port'
import { reasonPhrase } from '../services/errors'
import { requestIdOf } from './request-observer'

/** Seconds a client is asked to wait while the database is unreachable. */
export const UNAVAILABLE_RETRY_AFTER = 5

export const UNAVAILABLE_MESSAGE = 'The database is unavailable, please try again shortly'

/** The DatabaseUnavailableError of `error`: thrown as is, or wrapped by h3. */
function unavailableOf(error: unknown): DatabaseUnavailableError | undefined {
  if (error instanceof DatabaseUnavailableError) return error
  const cause = (error as { cause?: unknown } | null)?.cause
  return cause instanceof DatabaseUnavailableError ? cause : undefined
}

/** A lost or refused database connection, thrown as is or wrapped by h3. */
export function isDatabaseUnavailable(error: unknown): boolean {
  return unavailableOf(error) !== undefined
}

/** What the driver said when the database could not be reached or refused the request (for the log line of a 503). */
export function unavailableReason(error: unknown): string | undefined {
  const message = (unavailableOf(error)?.driverError as { message?: unknown } | undefined)?.message
  return typeof message === 'string' ? message : undefined
}

/** The headers every answer of an unreachable database carries: 503, Retry-After, never stored. */
export function setUnavailable(event: H3Event): void {
  setResponseStatus(event, 503, reasonPhrase(503))
  setResponseHeader(event, 'Cache-Control', 'no-store')
  setResponseHeader(event, 'Retry-After', UNAVAILABLE_RETRY_AFTER)
}

/**
 * Answers 503 in the API's error shape: this request fails cleanly and the
 * pool reconnects on its own (docs/behaviour.md "Errors").
 */
export async function sendUnavailable(event: H3Event): Promise<void> {
  setUnavailable(event)
  setResponseHeader(event, 'Content-Type', 'application/json')
  await send(event, JSON.stringify({ statusCode: 503, statusMessage: reasonPhrase(503), message: UNAVAILABLE_MESSAGE, requestId: requestIdOf(event) }))
}
