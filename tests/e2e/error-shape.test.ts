import { describe, expect, it } from 'vitest'
import { api, registerUser } from '../support/api'
import { openApi } from '../support/openapi'
import { makeAdmin, seedUpload } from '../support/seed'

const SHAPE = ['message', 'statusCode', 'statusMessage']

describe('errors of percent-encoded /api paths', () => {
  it('answers /%61pi/... and /api itself in the error shape, as routing treats it as /api', async () => {
    // `/api` itself too, without its query echoed (the page renderer's 404 would name the URL).
    for (const path of ['/%61pi/nothing-here', '/%61%70%69/nothing-here', '/api/%6eothing-here', '/api', '/api/?secret=abc', '/%61pi']) {
      const response = await api(path)
      expect(response.status, path).toBe(404)
      expect(response.headers.get('content-type'), path).toBe('application/json')
      expect(response.body, path).toEqual({ statusCode: 404, statusMessage: 'Not Found', message: 'Not found' })
    }
  })

  it('answers a validation error of a handler reached by /%61pi/auth in the error shape', async () => {
    const response = await api('/%61pi/auth', { method: 'POST', body: { action: 'login' } })
    expect(response.status).toBe(400)
    expect(response.body).toMatchObject({ statusCode: 400, statusMessage: 'Bad Request', message: 'Email is required' })
    expect(Object.keys(response.body).filter(key => key !== 'data').sort()).toEqual(SHAPE)
    const method = await api('/%61pi/uploads', { method: 'PUT', body: {} })
    expect(method.status).toBe(405)
    expect(method.body).toEqual({ statusCode: 405, statusMessage: 'Method Not Allowed', message: 'Method not allowed' })
  })
})

/** Values no parameter takes: a NUL byte, bytes that are not UTF-8, a lone surrogate, far too long, out of range, half a query. */
const JUNK = ['%00', 'a%00b', '%FF%FE', '%ED%A0%80', 'x'.repeat(600), '-1', '1e309', '((']

describe('junk in a parameter', () => {
  it('is answered with a 4xx in the error shape by every documented operation, signed in as an admin or not', async () => {
    const { document } = await openApi()
    const admin = await makeAdmin(await registerUser())
    type Parameter = { name: string, in: string }
    const operations = Object.entries(document.paths as Record<string, Record<string, { parameters?: Parameter[] }>>)
      .flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ method, path, parameters: operation.parameters ?? [] })))
      // Only what a parameter can reach: an operation without one (sign out among them) is not called.
      .filter(operation => operation.parameters.some(parameter => parameter.in === 'path' || parameter.in === 'query'))
    expect(operations.length).toBeGreaterThan(30)
    const refused = new Set<number>()
    for (const { method, path, parameters } of operations) {
      for (const junk of JUNK) {
        const filled = path.replace(/\{\w+\}/g, junk)
        const query = parameters.filter(parameter => parameter.in === 'query').map(parameter => `${parameter.name}=${junk}`).join('&')
        const url = `${filled}${query ? `?${query}` : ''}`
        for (const token of [admin.token, undefined]) {
          const response = await api(url, { method: method.toUpperCase(), token })
          const what = `${method.toUpperCase()} ${url.slice(0, 80)}${token ? ' (admin)' : ''}`
          // Some junk is only text to a handler (a search for "((" finds nothing): a 2xx is fine, a 5xx never.
          expect(response.status, what).toBeLessThan(500)
          if (response.status < 400) continue
          refused.add(response.status)
          expect(response.headers.get('content-type'), what).toContain('application/json')
          expect(Object.keys(response.body).filter(key => key !== 'data').sort(), what).toEqual(SHAPE)
          expect(response.body.statusCode, what).toBe(response.status)
        }
      }
    }
    expect([...refused].sort()).toEqual(expect.arrayContaining([400, 401, 404]))
  })
})

/** JSON values no field takes: of every other type, empty, nested, far too long, a NUL, out of range. */
const JUNK_VALUES: unknown[] = [null, true, -1, 1e308, [], {}, [[{}]], { a: { b: [] } }, 'x'.repeat(20_000), '\u0000', '']

describe('junk in a JSON body', () => {
  it('is answered with a 4xx in the error shape, or taken as harmless, by every documented operation', async () => {
    const { document } = await openApi()
    const admin = await makeAdmin(await registerUser())
    const uploadId = await seedUpload(admin, { tags: ['junk-body'] })
    type Schema = { $ref?: string, properties?: Record<string, unknown> }
    type Operation = { requestBody?: { content?: Record<string, { schema?: Schema }> } }
    const components = (document.components as { schemas: Record<string, Schema> }).schemas
    const resolved = (schema: Schema | undefined) => schema?.$ref ? components[schema.$ref.split('/').pop()!] : schema
    const operations = Object.entries(document.paths as Record<string, Record<string, Operation>>)
      .flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ method, path, schema: resolved(operation.requestBody?.content?.['application/json']?.schema) })))
      // Signing out would end the session the rest are sent with.
      .filter(operation => operation.schema && !operation.path.endsWith('/logout'))
    expect(operations.length).toBeGreaterThan(20)
    const answered = new Map<number, number>()
    for (const { method, path, schema } of operations) {
      // Real ids where a path names one, so the body is what gets judged.
      const url = path.replace('{id}', uploadId).replace('{slug}', 'junk-body').replace('{username}', admin.username).replace(/\{\w+\}/g, 'x')
      const bodies = [...JUNK_VALUES, ...Object.keys(schema!.properties ?? {}).flatMap(field => JUNK_VALUES.map(value => ({ [field]: value })))]
      for (const body of bodies) {
        const response = await api(url, { method: method.toUpperCase(), token: admin.token, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } })
        const what = `${method.toUpperCase()} ${url} ${JSON.stringify(body).slice(0, 60)}`
        expect(response.status, what).toBeLessThan(500)
        answered.set(response.status, (answered.get(response.status) ?? 0) + 1)
        if (response.status < 400) continue
        expect(response.headers.get('content-type'), what).toContain('application/json')
        expect(Object.keys(response.body).filter(key => key !== 'data').sort(), what).toEqual(SHAPE)
      }
    }
    // Most junk reaches the handlers' validation: the admin passes every check before it.
    expect(answered.get(400)).toBeGreaterThan(400)
  })
})
