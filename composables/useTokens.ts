import type * as v from 'valibot'
import type { ApiTokenSchema, GeneratedTokenSchema, TokenListSchema } from '#shared/schemas/auth'
import type { SuccessSchema } from '#shared/schemas/common'

export type ApiTokenInfo = v.InferOutput<typeof ApiTokenSchema>
export type CreatedApiToken = v.InferOutput<typeof GeneratedTokenSchema>

/** The caller's API tokens (the session cookie is accepted by these endpoints). */
export function useTokens() {
  const api = useApi()
  const list = () => api<v.InferOutput<typeof TokenListSchema>>('/api/auth/tokens')
  const create = (name: string, expiresInDays?: number) =>
    api<CreatedApiToken>('/api/auth/tokens/generate', { method: 'POST', body: { name, ...(expiresInDays ? { expiresInDays } : {}) } })
  const revoke = (id: string) => api<v.InferOutput<typeof SuccessSchema>>(`/api/auth/tokens/${id}`, { method: 'DELETE' })
  return { list, create, revoke }
}
