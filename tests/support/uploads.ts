import { randomBytes, randomUUID } from 'node:crypto'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { inject } from 'vitest'
import { hashApiToken } from '../../server/services/api-tokens'
import { api, type ApiResponse, type TestUser } from './api'
import { randomImage, uploadForm, type ImageFormat } from './images'

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

/** The e2e server's SQLite file, opened directly (WAL: safe beside the running server). */
export function openServerDatabase(dataDir = inject('dataDir')) {
  return new Database(join(dataDir, 'app.sqlite'))
}

/** An API token for `userId`, inserted straight into the server's database. */
export function createApiToken(userId: string, options: { expiresAt?: string, dataDir?: string } = {}): { id: string, token: string } {
  const token = randomBytes(32).toString('hex')
  const id = randomUUID()
  const db = openServerDatabase(options.dataDir)
  try {
    db.prepare('INSERT INTO api_tokens (id, user_id, name, token_hash, expires_at) VALUES (?, ?, ?, ?, ?)')
      .run(id, userId, 'test', hashApiToken(token), options.expiresAt ?? new Date(Date.now() + 86_400_000).toISOString())
  }
  finally {
    db.close()
  }
  return { id, token }
}
