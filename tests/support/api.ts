import { randomUUID } from 'node:crypto'
import { sharedServer } from './shared-server'

// Tests read arbitrary JSON answers; the assertions check their shape.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any

export interface ApiResponse<T = Json> {
  status: number
  headers: Headers
  body: T
}

export interface RequestOptions {
  method?: string
  /** JSON body (objects) or a ready body (FormData, string, Buffer). */
  body?: unknown
  /** Session JWT sent as the auth-token cookie. */
  token?: string
  /** Sent as `Authorization: Bearer`. */
  bearer?: string
  headers?: Record<string, string>
  baseURL?: string
}

/** One HTTP request to the server under test; the body is parsed as JSON when it is JSON. */
export async function api<T = Json>(path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers }
  if (options.token) headers.cookie = `auth-token=${options.token}`
  if (options.bearer) headers.authorization = `Bearer ${options.bearer}`
  let body: BodyInit | undefined
  if (options.body instanceof FormData || typeof options.body === 'string' || options.body instanceof Uint8Array) {
    body = options.body as BodyInit
  }
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body)
    headers['content-type'] ??= 'application/json'
  }
  const response = await fetch(`${options.baseURL ?? sharedServer().baseURL}${path}`, { method: options.method ?? 'GET', headers, body, redirect: 'manual' })
  const text = await response.text()
  const isJson = response.headers.get('content-type')?.includes('json')
  return { status: response.status, headers: response.headers, body: (isJson && text ? JSON.parse(text) : text) as T }
}

export interface TestUser {
  id: string
  username: string
  email: string
  password: string
  token: string
}

/** Registers a fresh account through the API and returns it with its session JWT. */
export async function registerUser(overrides: Partial<Pick<TestUser, 'username' | 'email' | 'password'>> = {}, baseURL?: string): Promise<TestUser> {
  const suffix = randomUUID().slice(0, 8)
  const input = {
    username: overrides.username ?? `user_${suffix}`,
    email: overrides.email ?? `user_${suffix}@e2e.test`,
    password: overrides.password ?? 'correct horse battery',
  }
  const response = await api('/api/auth', { method: 'POST', body: { action: 'register', ...input }, baseURL })
  if (response.status !== 201) throw new Error(`register failed: ${response.status} ${JSON.stringify(response.body)}`)
  return { ...input, email: input.email.toLowerCase(), id: response.body.user.id, token: response.body.token }
}

/** Asserts the API's error shape (docs/behaviour.md, Errors) and returns the body. */
export function errorBody(response: ApiResponse) {
  return response.body as { statusCode: number, statusMessage: string, message: string, data?: unknown }
}
