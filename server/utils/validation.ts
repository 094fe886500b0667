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
  const issues = result.issues.map(issue => ({ path: v.getDotPath(issue) ?? '', message: issue.message }))
  throw badRequest(issues[0]!.message, { issues })
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
