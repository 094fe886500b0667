import * as v from 'valibot'
import { defineApiPaths } from '../utils/openapi'

const PartSchema = v.picklist(['ok', 'error'])
const HealthSchema = v.object({
  status: PartSchema,
  database: PartSchema,
  redis: v.picklist(['ok', 'error', 'off']),
  storage: PartSchema,
})

export default defineApiPaths({
  '/api/health': {
    get: {
      operationId: 'getHealth',
      summary: 'Whether the database, Redis (when configured) and media storage answer',
      description: 'Not rate-limited, never cached. 503 with the same shape when a configured part fails.',
      tags: ['Meta'],
      responses: {
        200: { description: 'Every configured part answers', schema: HealthSchema },
        503: { description: 'A configured part failed (it and `status` are `error`)', schema: HealthSchema },
      },
    },
  },
  '/api/openapi.json': {
    get: {
      operationId: 'getOpenApiDocument',
      summary: 'This OpenAPI 3.1 description',
      tags: ['Meta'],
      responses: { 200: { description: 'The OpenAPI document', schema: v.record(v.string(), v.unknown()) } },
    },
  },
})
