import Ajv2020 from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { expect } from 'vitest'
import { api, type ApiResponse } from './api'

type Document = {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>>
  components: { schemas: Record<string, object> }
}

let cached: Promise<{ document: Document, ajv: InstanceType<typeof Ajv2020> }> | undefined

/** The served OpenAPI document and a JSON Schema 2020-12 validator that knows its components. */
export function openApi(baseURL?: string) {
  cached ??= api('/api/openapi.json', { baseURL }).then(({ body }) => {
    const ajv = new Ajv2020({ strict: false, allErrors: true })
    addFormats(ajv)
    ajv.addSchema({ $id: 'openapi', components: body.components })
    return { document: body as Document, ajv }
  })
  return cached
}

/**
 * Asserts that a real answer validates against the schema the OpenAPI document
 * gives for (method, path template, status).
 */
export async function expectMatchesOpenApi(method: string, template: string, response: ApiResponse): Promise<void> {
  const { document, ajv } = await openApi()
  const operation = document.paths[template]?.[method.toLowerCase()]
  expect(operation, `${method} ${template} is not in the OpenAPI document`).toBeDefined()
  const described = operation!.responses[String(response.status)]
  expect(described, `${method} ${template} does not describe status ${response.status}`).toBeDefined()
  const schema = described!.content?.['application/json']?.schema
  if (!schema) return
  const resolved = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/'))
  const validate = ajv.compile(resolved)
  const valid = validate(response.body)
  expect(validate.errors ?? [], `${method} ${template} ${response.status} answer does not match its schema`).toEqual([])
  expect(valid).toBe(true)
}
