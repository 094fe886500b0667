export interface ApiTokenInfo {
  id: string
  name: string
  createdAt: string
  expiresAt: string
  lastUsedAt: string | null
}

export interface CreatedApiToken {
  id: string
  token: string
  name: string
  expiresAt: string
}

/** The caller's API tokens (the session cookie is accepted by these endpoints). */
export function useTokens() {
  const api = useApi()
  const list = () => api<{ tokens: ApiTokenInfo[] }>('/api/auth/tokens')
  const create = (name: string, expiresInDays?: number) =>
    api<CreatedApiToken>('/api/auth/tokens/generate', { method: 'POST', body: { name, ...(expiresInDays ? { expiresInDays } : {}) } })
  const revoke = (id: string) => api<{ success: boolean }>(`/api/auth/tokens/${id}`, { method: 'DELETE' })
  return { list, create, revoke }
}
