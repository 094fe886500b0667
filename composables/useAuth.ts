export interface ProfileUser {
  id: string
  username: string
  email: string | null
  createdAt: string
  isAdmin: boolean
  mfaEnabled: boolean
}

export interface Profile {
  user: ProfileUser
  stats: { uploads: number, votes: number }
}

export interface LoginResult {
  mfaRequired: boolean
}

/**
 * The signed-in account (GET /api/profile) shared by every page, and the account
 * actions: login (with the MFA step), register, logout, password change and reset.
 */
export function useAuth() {
  const profile = useState<Profile | null>('auth:profile', () => null)
  const loaded = useState<boolean>('auth:loaded', () => false)
  const api = useApi()

  const user = computed(() => profile.value?.user ?? null)
  const signedIn = computed(() => Boolean(profile.value))
  const isAdmin = computed(() => Boolean(profile.value?.user.isAdmin))

  async function refresh(): Promise<Profile | null> {
    try {
      // Bypass the 30-second private cache: the answer must follow a login or logout at once.
      profile.value = await api<Profile>('/api/profile', import.meta.client ? { cache: 'no-store' } : {})
    }
    catch {
      profile.value = null
    }
    loaded.value = true
    return profile.value
  }

  async function ensureLoaded(): Promise<Profile | null> {
    if (!loaded.value) await refresh()
    return profile.value
  }

  async function login(input: { email: string, password: string, mfaCode?: string }): Promise<LoginResult> {
    const body = { action: 'login', email: input.email, password: input.password, ...(input.mfaCode ? { mfaCode: input.mfaCode } : {}) }
    const result = await api<{ mfaRequired: boolean, token?: string }>('/api/auth', { method: 'POST', body })
    if (result.mfaRequired && !result.token) return { mfaRequired: true }
    await refresh()
    return { mfaRequired: false }
  }

  async function register(input: { email: string, username: string, password: string }): Promise<void> {
    await api('/api/auth', { method: 'POST', body: { action: 'register', ...input } })
    await refresh()
  }

  async function logout(): Promise<void> {
    try {
      await api('/api/auth/logout', { method: 'POST' })
    }
    finally {
      profile.value = null
      loaded.value = true
    }
  }

  function changePassword(input: { currentPassword: string, newPassword: string, confirmPassword: string, mfaCode?: string }) {
    return api<{ success: boolean, message: string }>('/api/auth/change-password', { method: 'POST', body: input })
  }

  function forgotPassword(email: string) {
    return api<{ message: string }>('/api/auth/forgot-password', { method: 'POST', body: { email } })
  }

  function resetPassword(input: { token: string, password: string, mfaCode?: string }) {
    return api<{ message: string }>('/api/auth/reset-password', { method: 'POST', body: input })
  }

  return { profile, user, signedIn, isAdmin, loaded, refresh, ensureLoaded, login, register, logout, changePassword, forgotPassword, resetPassword }
}
