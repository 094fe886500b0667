import { randomBytes, randomUUID } from 'node:crypto'
import { sql } from '../../server/database/sql'
import { hashApiToken } from '../../server/services/api-tokens'
import { api, type ApiResponse, type TestUser } from './api'
import { randomImage, uploadForm, type ImageFormat } from './images'
import { databaseOf, serverDatabase } from './seed'

/** POST /api/upload as `user` (or anonymously with null). */
export function postUpload(user: Pick<TestUser, 'token'> | null, fields: Record<string, string>, file?: { data: Buffer | Uint8Array, name?: string, type?: string }, baseURL?: string): Promise<ApiResponse> {
  return api('/api/upload', { method: 'POST', token: user?.token, body: uploadForm(fields, file), baseURL })
}

/** Uploads a fresh unique image and returns the creation body's `upload`. */
export async function uploadImage(user: Pick<TestUser, 'token'>, options: { format?: ImageFormat, isPrivate?: boolean, tags?: string, description?: string, baseURL?: string } = {}) {
  const format = options.format ?? 'png'
  const fields: Record<string, string> = { upload_type: 'image', description: options.description ?? 'A test image' }
  if (options.tags) fields.tags = options.tags
  if (options.isPrivate) fields.is_private = 'true'
  const response = await postUpload(user, fields, { data: await randomImage(format), name: `picture.${format}`, type: `image/${format}` }, options.baseURL)
  if (response.status !== 201) throw new Error(`upload failed: ${response.status} ${JSON.stringify(response.body)}`)
  return response.body.upload as { id: string, userId: string, filename: string }
}

/** An API token for `userId`, inserted straight into the database of the e2e server (or of `server`). */
export async function createApiToken(userId: string, options: { expiresAt?: string, server?: { dataDir: string, databaseUrl?: string } } = {}): Promise<{ id: string, token: string }> {
  const token = randomBytes(32).toString('hex')
  const id = randomUUID()
  const { db } = options.server ? databaseOf(options.server) : serverDatabase()
  await db.run(sql`INSERT INTO api_tokens (id, user_id, name, token_hash, expires_at)
    VALUES (${id}, ${userId}, 'test', ${hashApiToken(token)}, ${options.expiresAt ?? new Date(Date.now() + 86_400_000).toISOString()})`)
  return { id, token }
}
