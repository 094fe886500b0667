import * as v from 'valibot'

export default defineApiPaths({
  '/api/openapi.json': {
    get: {
      summary: 'This OpenAPI 3.1 description',
      tags: ['Meta'],
      responses: { 200: { description: 'The OpenAPI document', schema: v.record(v.string(), v.unknown()) } },
    },
  },
})
