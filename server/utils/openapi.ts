import { toJsonSchema, toJsonSchemaDefs, type ConversionConfig } from '@valibot/to-json-schema'
import type * as v from 'valibot'

type Schema = v.GenericSchema
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete'
type Json = Record<string, unknown>
/** cookie = auth-token session cookie, jwt = JWT bearer, apiToken = API-token bearer; none = may also be called without. */
export type SecurityName = 'cookie' | 'jwt' | 'apiToken' | 'none'

export interface ApiOperation {
  /**
   * The operation's name in generated clients: camelCase, unique in the document, and
   * never renamed once published (clients call it by this name), e.g. `castVote`.
   */
  operationId: string
  summary: string
  description?: string
  tags: string[]
  /** Alternatives; omit for public endpoints. */
  security?: SecurityName[]
  /** Parameters by where they go; `header` names each header as it is sent (`Idempotency-Key`). */
  params?: { path?: Schema, query?: Schema, header?: Schema }
  /** Request body: the same valibot schema the handler validates with. */
  body?: { json?: Schema, multipart?: Schema, encoding?: Record<string, { contentType: string }> }
  /** Status → description and (for JSON answers) the response schema; error statuses get the error shape. */
  responses: Record<number, { description: string, schema?: Schema, content?: string, headers?: Record<string, string> }>
  /** Set from the route's record (documentedPaths): false where no rate limit counts the request (health, images). */
  rateLimited?: boolean
}

/** OpenAPI paths of one resource, e.g. server/openapi/uploads.ts; keys use {param} style. */
export type ApiPaths = Record<string, Partial<Record<Method, ApiOperation>>>

/** One resource's paths, typed as written, so that a route record names an operation that exists (server/utils/route-table.ts). */
export function defineApiPaths<P extends ApiPaths>(paths: P): P {
  return paths
}

/**
 * A named schema of `components.schemas`: wherever the same valibot schema object is
 * used (in a body, an answer or another component) the document says `$ref` to it.
 * `examples` must validate against it (tests/e2e/openapi-clients.test.ts checks).
 */
export interface ApiComponent {
  schema: Schema
  description?: string
  examples: unknown[]
}

/**
 * Request components (request bodies, converted as the input a client sends) and
 * response components (answers, converted as what the server returns). Names are
 * unique across both.
 */
export interface ApiComponents {
  requests: Record<string, ApiComponent>
  responses: Record<string, ApiComponent>
}

const REF_PREFIX = '#/components/schemas/'

type Converter = (schema: Schema) => Json

function converter(components: Record<string, ApiComponent>, typeMode: 'input' | 'output'): { convert: Converter, defs: Record<string, Json> } {
  const definitions = Object.fromEntries(Object.entries(components).map(([name, component]) => [name, component.schema]))
  const config: ConversionConfig = {
    target: 'draft-2020-12',
    errorMode: 'ignore',
    typeMode,
    definitions,
    overrideRef: ({ referenceId }) => `${REF_PREFIX}${referenceId}`,
  }
  const convert = (schema: Schema) => {
    const { $schema: _, $defs: __, ...rest } = toJsonSchema(schema, config) as Json
    return withDiscriminator(schema, rest)
  }
  const defs = toJsonSchemaDefs(definitions, config) as Record<string, Json>
  for (const [name, json] of Object.entries(defs)) {
    const component = components[name]!
    defs[name] = {
      ...withDiscriminator(component.schema, json),
      ...(component.description ? { description: component.description } : {}),
      examples: component.examples,
    }
  }
  return { convert, defs }
}

/**
 * A valibot `variant` whose options are all components becomes a `oneOf` with an
 * OpenAPI discriminator on the variant's key, mapping each literal to its component,
 * so generated clients get a tagged union (e.g. `upload_type` of the upload form).
 */
function withDiscriminator(schema: Schema, json: Json): Json {
  const variant = schema as Schema & { type: string, key?: string, options?: (Schema & { entries?: Record<string, { literal?: unknown }> })[] }
  const oneOf = json.oneOf as Json[] | undefined
  if (variant.type !== 'variant' || !variant.key || !oneOf?.every(option => typeof option.$ref === 'string')) return json
  const mapping = Object.fromEntries(variant.options!.map((option, index) => [String(option.entries?.[variant.key!]?.literal), oneOf[index]!.$ref]))
  return { ...json, discriminator: { propertyName: variant.key, mapping } }
}

/**
 * Query and path values arrive as text; a schema that parses a whole number says so
 * with `v.metadata({ type: 'integer', minimum })`, and the parameter is documented as
 * the integer a client sends (no string pattern, a numeric default).
 */
function parameterSchema(property: Json): Json {
  if (property.type !== 'integer') return property
  const { pattern: _, ...rest } = property
  return typeof rest.default === 'string' ? { ...rest, default: Number(rest.default) } : rest
}

function parameters(convert: Converter, schema: Schema | undefined, where: 'path' | 'query' | 'header') {
  if (!schema) return []
  const object = convert(schema) as { properties?: Record<string, Json>, required?: string[] }
  return Object.entries(object.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || (object.required ?? []).includes(name),
    ...(property.description ? { description: property.description } : {}),
    schema: parameterSchema(property),
  }))
}

/** Answers every operation of a kind can give, whether or not its file lists them. */
function commonResponses(path: string, method: string, op: ApiOperation): ApiOperation['responses'] {
  const responses: ApiOperation['responses'] = {}
  if (method === 'get') responses[304] = { description: 'Not modified: If-None-Match matched the ETag' }
  if (op.body?.json) responses[413] = { description: 'JSON body over 1 MB' }
  // docs/behaviour.md, Cross-site requests: a foreign Origin on an unsafe method, with or without a cookie.
  if (method !== 'get') responses[403] = { description: 'Cross-site request blocked: Origin present and not the site\'s own' }
  // Only JSON bodies reach a JSON endpoint (docs/behaviour.md, Errors), so no cross-site form does; a
  // PATCH, PUT or DELETE that reads no body ignores what it is sent (no form sends one).
  if (method !== 'get' && !op.body?.multipart && (op.body?.json || method === 'post')) responses[415] = { description: 'A body that is not application/json' }
  // Every /api request but health and an image counts against a rate limit (docs/behaviour.md, Rate limits); feeds are not under /api.
  if (path.startsWith('/api/') && op.rateLimited !== false) responses[429] = { description: 'Rate limited', headers: { 'Retry-After': 'Seconds to wait' } }
  // Every parameter of an /api operation is read through parseWith, which refuses a NUL
  // (docs/behaviour.md, Errors): a 400 even where the operation documents no other. An
  // operation that lists its own 400s keeps its words.
  if (path.startsWith('/api/') && (op.params?.path || op.params?.query)) responses[400] = { description: '`Text must not contain NUL characters` (a parameter with U+0000)' }
  // Node answers a request line and headers over 16 KB before any handler: a very long query.
  if (op.params?.query) responses[431] = { description: '`Request headers too large`: the request line and headers over 16 KB (a very long query)' }
  return responses
}

function operation(path: string, method: string, op: ApiOperation, input: Converter, output: Converter) {
  const responses = { ...commonResponses(path, method, op), ...op.responses }
  const content: Record<string, unknown> = {}
  if (op.body?.json) content['application/json'] = { schema: input(op.body.json) }
  if (op.body?.multipart) content['multipart/form-data'] = { schema: input(op.body.multipart), ...(op.body.encoding ? { encoding: op.body.encoding } : {}) }
  return {
    operationId: op.operationId,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: op.tags,
    ...(op.security ? { security: op.security.map(name => name === 'none' ? {} : { [name]: [] }) } : { security: [] }),
    parameters: [...parameters(input, op.params?.path, 'path'), ...parameters(input, op.params?.query, 'query'), ...parameters(input, op.params?.header, 'header')],
    ...(Object.keys(content).length ? { requestBody: { required: true, content } } : {}),
    responses: Object.fromEntries(Object.entries(responses).map(([status, response]) => {
      const errorStatus = Number(status) >= 400
      const schema = response.schema ? output(response.schema) : errorStatus ? { $ref: `${REF_PREFIX}Error` } : undefined
      const headers = response.headers
        ? { headers: Object.fromEntries(Object.entries(response.headers).map(([name, description]) => [name, { description, schema: { type: 'string' } }])) }
        : {}
      return [status, {
        description: response.description,
        ...headers,
        ...(schema ? { content: { [response.content ?? 'application/json']: { schema } } } : {}),
      }]
    })),
  }
}

/** camelCase: a lower-case letter, then letters and digits. */
const OPERATION_ID = /^[a-z][a-zA-Z0-9]*$/

/** The whole OpenAPI 3.1 document from every resource's paths and the named components. */
export function buildOpenApiDocument(all: ApiPaths[], components: ApiComponents, siteUrl: string) {
  const clash = Object.keys(components.requests).find(name => name in components.responses)
  if (clash) throw new Error(`OpenAPI component ${clash} is both a request and a response component`)
  if (!components.responses.Error) throw new Error('OpenAPI components need Error, the shape of every error answer')
  const input = converter(components.requests, 'input')
  const output = converter(components.responses, 'output')
  const paths: Record<string, Record<string, unknown>> = {}
  const operationIds = new Set<string>()
  for (const group of all) {
    for (const [path, methods] of Object.entries(group)) {
      for (const [method, op] of Object.entries(methods) as [Method, ApiOperation][]) {
        if (!OPERATION_ID.test(op.operationId)) throw new Error(`operationId ${op.operationId} of ${method.toUpperCase()} ${path} is not camelCase`)
        if (operationIds.has(op.operationId)) throw new Error(`operationId ${op.operationId} of ${method.toUpperCase()} ${path} is used twice`)
        operationIds.add(op.operationId)
        paths[path] = { ...paths[path], [method]: operation(path, method, op, input.convert, output.convert) }
      }
    }
  }
  const schemas = { ...input.defs, ...output.defs }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Does It Fuck? API',
      version: '1.0.0',
      description: 'HTTP/JSON API of the community voting site. Responses are JSON with no envelope; errors are { statusCode, statusMessage, message }.',
    },
    servers: [{ url: siteUrl }],
    tags: [...new Set(Object.values(paths).flatMap(methods => Object.values(methods).flatMap(op => (op as { tags: string[] }).tags)))].map(name => ({ name })),
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))),
      securitySchemes: {
        cookie: { type: 'apiKey', in: 'cookie', name: 'auth-token', description: 'Session JWT set by login; valid 24 hours.' },
        jwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The login token, accepted as a bearer only by the API-token endpoints.' },
        apiToken: { type: 'http', scheme: 'bearer', description: 'A 64-character hex API token; accepted only by /api/v1/upload.' },
      },
    },
  }
}
