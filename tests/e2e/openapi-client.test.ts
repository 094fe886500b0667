import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import Ajv2020 from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript'
import ts from 'typescript'
import { beforeAll, describe, expect, it } from 'vitest'
import { api } from '../support/api'
import { ROOT } from '../support/server'
import { sharedServer } from '../support/shared-server'

const run = promisify(execFile)
const CLIENT_DIR = join(ROOT, 'tests/support/openapi-client')
const CLIENT = join(CLIENT_DIR, 'client.ts')

type Operation = { operationId?: string, parameters: { name: string, in: string, schema: Record<string, unknown> }[], responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }> }
type Document = { paths: Record<string, Record<string, Operation>>, components: { schemas: Record<string, { examples?: unknown[] }> } }

/** openapi-typescript's documented transform: `format: binary` typed as a Blob (what FormData takes). */
const binaryAsBlob = (schema: { format?: string }) => schema.format === 'binary' ? ts.factory.createTypeReferenceNode(ts.factory.createIdentifier('Blob')) : undefined

/**
 * The types a client generates from the served document: openapi-typescript's Node API
 * with its default options, as `npx openapi-typescript <url>` writes them.
 */
async function generateTypes(document: Document, options: { transform?: typeof binaryAsBlob } = {}): Promise<string> {
  const ast = await openapiTS(JSON.stringify(document), options)
  return `/* eslint-disable */\n${COMMENT_HEADER}${astToString(ast)}`
}

let document: Document
const operations = () => Object.entries(document.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })))
const response200 = (method: string, path: string) => document.paths[path]![method]!.responses['200'] ?? document.paths[path]![method]!.responses['201']
const jsonSchema = (method: string, path: string) => response200(method, path)!.content!['application/json']!.schema

beforeAll(async () => {
  document = (await api('/api/openapi.json')).body
})

describe('the OpenAPI document serves generated clients', () => {
  it('names every operation once, in camelCase', () => {
    const ids = operations().map(({ op }) => op.operationId)
    for (const { path, method, op } of operations()) expect(op.operationId, `${method} ${path}`).toMatch(/^[a-z][a-zA-Z0-9]*$/)
    expect(new Set(ids).size).toBe(ids.length)
    expect(document.paths['/api/uploads']!.get!.operationId).toBe('listUploads')
    expect(document.paths['/api/vote']!.post!.operationId).toBe('castVote')
    expect(document.paths['/api/v1/upload']!.post!.operationId).toBe('createUploadWithApiToken')
  })

  it('types page and limit as integers, which the server still reads from the query string', async () => {
    const integers = operations().flatMap(({ path, method, op }) => op.parameters.filter(p => p.in === 'query' && ['page', 'limit'].includes(p.name)).map(p => ({ at: `${method} ${path} ${p.name}`, schema: p.schema })))
    expect(integers.map(p => p.at)).toEqual(expect.arrayContaining(['get /api/uploads page', 'get /api/uploads limit', 'get /api/admin/users page', 'get /api/tags limit', 'get /api/user/{username}/uploads limit']))
    for (const { at, schema } of integers) {
      expect(schema, at).toMatchObject({ type: 'integer', minimum: 1 })
      expect(schema.pattern, at).toBeUndefined()
      expect(typeof schema.default, at).toBe('number')
    }
    const { status, body } = await api('/api/uploads?page=1&limit=2')
    expect(status).toBe(200)
    expect(body).toMatchObject({ page: 1, limit: 2 })
    expect((await api('/api/uploads?limit=two')).status).toBe(400)
  })

  it('refers to named component schemas, each with examples that validate against it', () => {
    const schemas = document.components.schemas
    expect(Object.keys(schemas)).toEqual(expect.arrayContaining(['Upload', 'UploadListEntry', 'UserUploadListEntry', 'Tag', 'Vote', 'User', 'Error', 'ApiToken', 'ImageUploadForm']))
    expect(jsonSchema('get', '/api/upload/{id}')).toEqual({ $ref: '#/components/schemas/Upload' })
    expect(jsonSchema('get', '/api/uploads')).toMatchObject({ properties: { uploads: { items: { $ref: '#/components/schemas/UploadListEntry' } } } })
    expect(jsonSchema('get', '/api/uploads/{id}/tags')).toMatchObject({ properties: { tags: { items: { $ref: '#/components/schemas/Tag' } } } })
    expect(jsonSchema('post', '/api/vote')).toMatchObject({ properties: { vote: { $ref: '#/components/schemas/Vote' } } })
    expect(jsonSchema('post', '/api/auth')).toEqual({ $ref: '#/components/schemas/AuthResult' })
    expect(schemas.AuthResult).toMatchObject({ properties: { user: { $ref: '#/components/schemas/User' } } })
    expect(document.paths['/api/vote']!.post!.responses['401']!.content!['application/json']!.schema).toEqual({ $ref: '#/components/schemas/Error' })

    const ajv = new Ajv2020({ strict: false, allErrors: true })
    addFormats(ajv)
    ajv.addSchema({ $id: 'openapi', components: document.components })
    for (const [name, schema] of Object.entries(schemas)) {
      expect(schema.examples?.length, `${name} has examples`).toBeGreaterThan(0)
      const validate = ajv.getSchema(`openapi#/components/schemas/${name}`)!
      for (const example of schema.examples!) {
        validate(example)
        expect(validate.errors ?? [], `example of ${name}`).toEqual([])
      }
    }
  })

  it('keeps the committed generated types up to date with the served document', async () => {
    // After an API change: `npx vitest run --project e2e tests/e2e/openapi-client.test.ts -u` rewrites the file.
    await expect(await generateTypes(document)).toMatchFileSnapshot('../support/openapi-client/api.d.ts')
  })

  it('types the upload\'s file as bytes a Blob goes into, never as text', async () => {
    const fileOf = (types: string) => types.match(/ImageUploadForm: \{.*?\n\s+file: ([^;]+);/s)?.[1]
    // Default options: `unknown` takes a Blob with no cast; `string` (a `type: string` schema) did not.
    expect(fileOf(await generateTypes(document))).toBe('unknown')
    // With the transform openapi-typescript documents for binary data: a Blob.
    expect(fileOf(await generateTypes(document, { transform: binaryAsBlob }))).toBe('Blob')
  })

  it('a client generated from it compiles under tsc --strict without casts and runs register → token → upload → vote → lists', async () => {
    const source = ts.createSourceFile(CLIENT, readFileSync(CLIENT, 'utf8'), ts.ScriptTarget.ES2022, true)
    const cheats: string[] = []
    const visit = (node: ts.Node): void => {
      if (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node) || ts.isNonNullExpression(node) || node.kind === ts.SyntaxKind.AnyKeyword) {
        cheats.push(node.getText(source))
      }
      ts.forEachChild(node, visit)
    }
    visit(source)
    expect(cheats).toEqual([])

    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc')
    const compiled = await run(process.execPath, [tsc, '--strict', '--noEmit', '--noUncheckedIndexedAccess', '--target', 'es2022', '--module', 'esnext',
      '--moduleResolution', 'bundler', '--types', 'node', '--skipLibCheck', CLIENT], { cwd: ROOT }).catch((error: { stdout: string }) => ({ stdout: error.stdout, failed: true }))
    expect(compiled.stdout).toBe('')

    const { stdout } = await run(process.execPath, [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), CLIENT], { cwd: ROOT, env: { ...process.env, BASE_URL: sharedServer().baseURL }, timeout: 30_000 })
    const result = JSON.parse(stdout)
    const { user, upload } = result
    expect(user.username).toMatch(/^client_[0-9a-f]{8}$/)
    expect(user.email).toBe(`${user.username}@client.test`)
    expect(result.apiToken).toEqual({ name: 'generated client', length: 64 })
    expect(result.created).toEqual({ uploadType: 'image', userId: user.id, originalName: 'client.png', isPrivate: false })
    expect(result.vote).toEqual({ userId: user.id, uploadId: upload.id, vote: 'fucks' })
    expect(upload).toEqual({
      id: upload.id,
      username: user.username,
      description: 'Sent by the generated client',
      upload_type: 'image',
      upvotes: 1,
      downvote_count: 0,
      stats: { voteCount: 1, upvotes: 1, downvotes: 0, averageRating: 10 },
      tags: ['generated-client', 'typed'],
    })
    expect(result.tags).toEqual(['Generated Client', 'Typed'])
    expect(result.myVote).toBe('fucks')
    expect(result.listPage).toEqual({ page: 1, limit: 100, listed: upload.id, upvotes: 1 })
    expect(result.userList).toEqual({ username: user.username, total: 1, page: 1, limit: 5, ids: [upload.id] })
  }, 60_000)
})
