import type { H3Event } from 'h3'
import { getQuery, getRouterParams, readBody } from 'h3'
import * as v from 'valibot'

type Schema = v.GenericSchema

/**
 * Runs a valibot schema from `shared/schemas`; a failure is a 400 whose
 * message is the first issue's (schemas carry the spec's wording) and whose
 * `data.issues` lists every field that failed.
 */
export function parseWith<S extends Schema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, input)
  if (result.success) return result.output
  const issues = result.issues.map(issue => ({ path: v.getDotPath(issue) ?? '', message: issueMessage(issue) }))
  throw badRequest(issues[0]!.message, { issues })
}

/**
 * A key that is missing altogether gets valibot's generic "Invalid key: ..." text;
 * say plainly which field is required instead. Every other issue keeps the
 * schema's own message.
 */
function issueMessage(issue: v.BaseIssue<unknown>): string {
  const key = issue.path?.at(-1)?.key
  if (issue.kind === 'schema' && issue.received === 'undefined' && typeof key === 'string' && issue.message.startsWith('Invalid key')) {
    return `${key.charAt(0).toUpperCase()}${key.slice(1)} is required`
  }
  return issue.message
}

/** The JSON body, validated. A missing or malformed body is a 400, not a 500. */
export async function readValidated<S extends Schema>(event: H3Event, schema: S): Promise<v.InferOutput<S>> {
  let body: unknown
  try {
    body = await readBody(event)
  }
  catch {
    throw badRequest('Invalid JSON body')
  }
  return parseWith(schema, body ?? {})
}

export function queryValidated<S extends Schema>(event: H3Event, schema: S): v.InferOutput<S> {
  return parseWith(schema, getQuery(event))
}

export function paramsValidated<S extends Schema>(event: H3Event, schema: S): v.InferOutput<S> {
  return parseWith(schema, getRouterParams(event, { decode: true }))
}
