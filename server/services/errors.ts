import { createError } from 'h3'

/** Standard reason phrases (RFC 9110) for every status the service answers with. */
export const REASON_PHRASES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  410: 'Gone',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  451: 'Unavailable For Legal Reasons',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
}

export function reasonPhrase(status: number): string {
  return REASON_PHRASES[status] ?? (status >= 500 ? 'Internal Server Error' : 'Bad Request')
}

/**
 * An error in the API's one shape (docs/behaviour.md, Errors). `message` is
 * ours, never user input; `data` carries per-field details (400) or the extra
 * fields a status defines (409).
 */
export function apiError(statusCode: number, message: string, data?: Record<string, unknown>) {
  return createError({ statusCode, statusMessage: reasonPhrase(statusCode), message, data })
}

/**
 * `write`'s result, or `refusal` when it broke a foreign key (PostgreSQL
 * 23503): a row it names was deleted after the statement's snapshot, as a
 * one-statement write that locks its row and writes from it may find.
 */
export async function unlessGone<T>(write: Promise<T>, refusal: () => Error): Promise<T> {
  try {
    return await write
  }
  catch (error) {
    throw (error as { code?: string } | null)?.code === '23503' ? refusal() : error
  }
}

export const badRequest = (message: string, data?: Record<string, unknown>) => apiError(400, message, data)
export const unauthorized = (message = 'Authentication required') => apiError(401, message)
export const forbidden = (message = 'Forbidden') => apiError(403, message)
export const notFound = (message = 'Not found') => apiError(404, message)
export const conflict = (message: string, data?: Record<string, unknown>) => apiError(409, message, data)
