import { describe, expect, it } from 'vitest'
import { api } from '../support/api'

const SHAPE = ['message', 'statusCode', 'statusMessage']

describe('errors of percent-encoded /api paths', () => {
  it('answers /%61pi/... in the error shape, as routing treats it as /api', async () => {
    for (const path of ['/%61pi/nothing-here', '/%61%70%69/nothing-here', '/api/%6eothing-here']) {
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
