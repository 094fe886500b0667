import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { ErrorSchema } from '#shared/schemas/common'
import { PageSchema } from '#shared/schemas/lists'
import { buildOpenApiDocument, type ApiComponents, type ApiPaths } from '../../server/utils/openapi'

const Cat = v.object({ kind: v.literal('cat'), lives: v.pipe(v.number(), v.integer()) })
const Dog = v.object({ kind: v.literal('dog'), good: v.boolean() })
const components: ApiComponents = {
  requests: { Cat: { schema: Cat, examples: [{ kind: 'cat', lives: 9 }] }, Dog: { schema: Dog, examples: [{ kind: 'dog', good: true }] } },
  responses: { Error: { schema: ErrorSchema, examples: [{ statusCode: 400, statusMessage: 'Bad Request', message: 'No' }] } },
}
const op = (operationId: string) => ({ operationId, summary: 'x', tags: ['T'], responses: { 200: { description: 'ok' } } })
const build = (paths: ApiPaths[], given = components) => buildOpenApiDocument(paths, given, 'http://localhost')

describe('buildOpenApiDocument', () => {
  it('refuses an operationId used twice or not in camelCase', () => {
    expect(() => build([{ '/a': { get: op('getThing') } }, { '/b': { get: op('getThing') } }])).toThrow('operationId getThing of GET /b is used twice')
    expect(() => build([{ '/a': { get: op('get-thing') } }])).toThrow('is not camelCase')
    expect(() => build([{ '/a': { get: op('GetThing') } }])).toThrow('is not camelCase')
    expect(build([{ '/a': { get: op('getThing'), post: op('postThing') } }]).paths['/a']).toMatchObject({ get: { operationId: 'getThing' }, post: { operationId: 'postThing' } })
  })

  it('documents a whole-number query value as an integer with a numeric default', () => {
    const document = build([{ '/a': { get: { ...op('listThings'), params: { query: v.object({ page: PageSchema }) } } } }])
    expect(document.paths['/a']).toMatchObject({ get: { parameters: [{ name: 'page', in: 'query', required: false, schema: { type: 'integer', minimum: 1, default: 1 } }] } })
    expect(JSON.stringify(document.paths['/a'])).not.toContain('pattern')
  })

  it('turns a variant of components into oneOf with a discriminator, and names components by $ref', () => {
    const document = build([{ '/pets': { post: { ...op('addPet'), body: { json: v.variant('kind', [Cat, Dog]) }, responses: { 200: { description: 'ok', schema: v.object({ pet: Cat }) } } } } }])
    const post = document.paths['/pets']!.post as { requestBody: { content: Record<string, { schema: unknown }> }, responses: Record<string, { content?: Record<string, { schema: unknown }> }> }
    expect(post.requestBody.content['application/json']!.schema).toEqual({
      oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }],
      discriminator: { propertyName: 'kind', mapping: { cat: '#/components/schemas/Cat', dog: '#/components/schemas/Dog' } },
    })
    // Cat is a request component: an answer converts it inline, not by a request $ref.
    expect(post.responses['200']!.content!['application/json']!.schema).toMatchObject({ properties: { pet: { properties: { lives: { type: 'integer' } } } } })
    expect(post.responses['400']).toBeUndefined()
    expect(post.responses['403']!.content!['application/json']!.schema).toEqual({ $ref: '#/components/schemas/Error' })
    expect(document.components.schemas).toMatchObject({ Cat: { examples: [{ kind: 'cat', lives: 9 }] }, Error: { examples: [{ statusCode: 400 }] } })
  })

  it('lists the 400 of a NUL in any /api parameter, and the 431 of a query too long', () => {
    const id = v.object({ id: v.string() })
    const document = build([
      { '/api/things/{id}': { get: { ...op('getThing'), params: { path: id } }, delete: { ...op('deleteThing'), params: { path: id }, responses: { 200: { description: 'ok' }, 400: { description: '`Invalid ID`' } } } } },
      { '/api/things': { get: { ...op('listThings'), params: { query: v.object({ page: PageSchema }) } } } },
      { '/api/plain': { get: op('getPlain') } },
      // Health and images: their route records count them in no rate limit (documentedPaths).
      { '/api/unlimited': { get: { ...op('getUnlimited'), rateLimited: false } } },
      { '/feeds/{name}': { get: { ...op('getFeed'), params: { path: v.object({ name: v.string() }) } } } },
    ])
    const responses = (path: string, method = 'get') => (document.paths[path]![method] as { responses: Record<string, { description: string }> }).responses
    const nul = '`Text must not contain NUL characters` (a parameter with U+0000)'
    expect(responses('/api/things/{id}')['400']!.description).toBe(nul)
    expect(responses('/api/things/{id}', 'delete')['400']!.description).toBe('`Invalid ID`')
    expect(responses('/api/things')['400']!.description).toBe(nul)
    expect(Object.keys(responses('/api/things'))).toContain('431')
    expect(Object.keys(responses('/api/things/{id}'))).not.toContain('431')
    expect(Object.keys(responses('/api/plain')).sort()).toEqual(['200', '304', '429'])
    expect(Object.keys(responses('/api/unlimited')).sort()).toEqual(['200', '304'])
    expect(Object.keys(responses('/feeds/{name}')).sort()).toEqual(['200', '304'])
  })

  it('needs the Error component and one name per component', () => {
    expect(() => build([], { requests: {}, responses: {} })).toThrow('need Error')
    expect(() => build([], { requests: { Error: components.responses.Error! }, responses: components.responses })).toThrow('both a request and a response component')
  })
})
