import type { H3Event } from 'h3'
import { getQuery, getRouterParams } from 'h3'
import * as v from 'valibot'
import { discardBody } from './multipart'
import { requestHeader } from './request-header'

type Schema = v.GenericSchema

/**
 * Runs a valibot schema from `shared/schemas`; a failure is a 400 whose
 * message is the first issue's (schemas carry the messages docs/behaviour.md
 * gives) and whose `data.issues` lists every field that failed.
 */
export function parseWith<S extends Schema>(schema: S, input: unknown): v.InferOutput<S> {
  refuseUnstorableText(input)
  const result = v.safeParse(schema, input)
  if (result.success) return result.output
  const issues = result.issues.map(issue => ({ path: v.getDotPath(issue) ?? '', message: issueMessage(issue) }))
  throw badRequest(issues[0]!.message, { issues })
}

/** The message of every text refused for a U+0000 in it (docs/behaviour.md "Errors"). */
export const NUL_MESSAGE = 'Text must not contain NUL characters'

/** The message of every text refused for a lone UTF-16 surrogate in it (docs/behaviour.md "Errors"). */
export const UNICODE_MESSAGE = 'Text must be valid Unicode'

/**
 * Text that the engines cannot hold as given is refused, whichever engine runs:
 * - U+0000, which PostgreSQL cannot hold in text and SQLite would keep;
 * - a lone surrogate (JSON's `"\ud800"`), which SQLite would store as bytes that
 *   are not UTF-8, read back as three U+FFFD (past the field's length), and
 *   PostgreSQL as one U+FFFD: not the text the caller sent, on either.
 * Every input that reaches a handler (JSON body, query, router params, multipart
 * fields and file name) passes here, keys and values, at any depth. A 400 before
 * the schema runs, so such a field is refused with the same words everywhere.
 */
export function refuseUnstorableText(input: unknown): void {
  const message = unstorable(input, 0)
  if (message) throw badRequest(message)
}

/** Deep enough for every body the API takes; a deeper one is refused by its schema anyway. */
const MAX_DEPTH = 32

function unstorable(value: unknown, depth: number): string | null {
  if (typeof value === 'string') return value.includes('\0') ? NUL_MESSAGE : value.isWellFormed() ? null : UNICODE_MESSAGE
  if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) return null
  if (Array.isArray(value)) {
    for (const item of value) {
      const message = unstorable(item, depth + 1)
      if (message) return message
    }
    return null
  }
  for (const key in value) {
    const message = unstorable(key, depth) ?? unstorable((value as Record<string, unknown>)[key], depth + 1)
    if (message) return message
  }
  return null
}

/**
 * A key that is missing altogether gets valibot's generic "Invalid key: ..." text;
 * say plainly which field is required instead. Every other issue keeps the
 * schema's own message.
 */
function issueMessage(issue: v.BaseIssue<unknown>): string {
  const key = issue.path?.at(-1)?.key
  if (issue.kind === 'schema' && issue.received === 'undefined' && typeof key === 'string' && issue.message.startsWith('Invalid key')) {
    return `${fieldName(key)} is required`
  }
  return issue.message
}

/** `currentPassword` → `Current password`, `mfaCode` → `MFA code`: the words the schemas' own messages use. */
function fieldName(key: string): string {
  const words = key.replace(/([a-z\d])([A-Z])/g, '$1 $2').replaceAll('_', ' ').toLowerCase().replace(/\bmfa\b/g, 'MFA')
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}`
}

/** Largest JSON body read; every JSON body of the API is a few kilobytes at most. */
export const MAX_JSON_BODY_BYTES = 1024 * 1024

/**
 * The JSON body, validated. A missing or malformed body is a 400, not a 500;
 * one over MAX_JSON_BODY_BYTES is a 413 before more than that is held in memory.
 * Parsed here with JSON.parse: every body that reaches a handler is JSON or
 * empty (server/middleware/03.api-method.ts answers any other type with 415),
 * so `application/json; charset=utf-8` with a malformed body is a 400 too.
 * h3's `readBody`, used before, copied every request header into a new
 * object and went through three more promises and destr: about 7 of the
 * 155 µs of server CPU a vote took.
 */
export async function readValidated<S extends Schema>(event: H3Event, schema: S): Promise<v.InferOutput<S>> {
  let body: unknown
  const raw = await readCappedBody(event)
  if (raw?.length) {
    try {
      body = JSON.parse(raw.toString('utf8'))
    }
    catch {
      throw badRequest('Invalid JSON body')
    }
    // Every body of the API is an object. valibot's object schemas take an array as one,
    // and `null` used to stand for no body: an admin's DELETE with `[]` removed and banned
    // with the defaults. No body at all still means `{}`.
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('Invalid body')
  }
  return parseWith(schema, body ?? {})
}

/** The request body up to MAX_JSON_BODY_BYTES, or a 413 (the rest is dropped unread). */
function readCappedBody(event: H3Event): Promise<Buffer | undefined> {
  const req = event.node.req
  if (req.readableEnded) return Promise.resolve(undefined)
  const tooLarge = () => {
    discardBody(event)
    return apiError(413, `Request body too large (max ${MAX_JSON_BODY_BYTES / 1024 / 1024} MB)`)
  }
  if (Number(requestHeader(event, 'content-length')) > MAX_JSON_BODY_BYTES) return Promise.reject(tooLarge())
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size <= MAX_JSON_BODY_BYTES) return void chunks.push(chunk)
      req.off('data', onData).off('end', onEnd)
      reject(tooLarge())
    }
    const onEnd = () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks))
    req.on('data', onData).once('end', onEnd).once('error', () => reject(badRequest('Invalid JSON body')))
  })
}

export function queryValidated<S extends Schema>(event: H3Event, schema: S): v.InferOutput<S> {
  return parseWith(schema, getQuery(event))
}

export function paramsValidated<S extends Schema>(event: H3Event, schema: S): v.InferOutput<S> {
  return parseWith(schema, getRouterParams(event, { decode: true }))
}
