import type * as v from 'valibot'
import type {
  AuthResponseSchema, MessageSchema, ProfileSchema, ResetTokenStatusSchema, SuccessMessageSchema,
} from '#shared/schemas/auth'
import type { SuccessSchema } from '#shared/schemas/common'

export type Profile = v.InferOutput<typeof ProfileSchema>
export type ProfileUser = Profile['user']

export interface LoginResult {
  mfaRequired: boolean
}

/**
 * The signed-in account (GET /api/profile) shared by every page, and the account
 * actions: login (with the MFA step), register, logout, password change and reset.
 */
export const useAuth = perApp(() => {
  const profile = useState<Profile | null>('auth:profile', () => null)
  const loaded = useState<boolean>('auth:loaded', () => false)
  /** The last profile load that failed for another reason than 401 (429, 5xx, no connection: status 0). */
  const loadFailure = useState<{ status: number, message: string } | null>('auth:load-failure', () => null)
  const api = useApi()

  const user = computed(() => profile.value?.user ?? null)
  const signedIn = computed(() => Boolean(profile.value))
  const isAdmin = computed(() => Boolean(profile.value?.user.isAdmin))

  /**
   * Asks the server who is signed in. Only a 401 means "signed out": any other
   * failure (429, 5xx, no connection) keeps what was known and is remembered in
   * `loadFailure`, so a busy server never signs anyone out.
   */
  async function refresh(): Promise<Profile | null> {
    try {
      // Bypass the 30-second private cache: the answer must follow a login or logout at once.
      profile.value = await api<Profile>('/api/profile', import.meta.client ? { cache: 'no-store' } : {})
    }
    catch (error) {
      const status = errorStatus(error)
      if (status !== 401) {
        loadFailure.value = { status, message: errorMessage(error) }
        return profile.value
      }
      profile.value = null
    }
    loadFailure.value = null
    loaded.value = true
    return profile.value
  }

  /** The signed-in account, asked once; asked again after a failed attempt. */
  async function ensureLoaded(): Promise<Profile | null> {
    if (!loaded.value) await refresh()
    return profile.value
  }

  async function login(input: { email: string, password: string, mfaCode?: string }): Promise<LoginResult> {
    const body = { action: 'login', email: input.email, password: input.password, ...(input.mfaCode ? { mfaCode: input.mfaCode } : {}) }
    const result = await api<v.InferOutput<typeof AuthResponseSchema>>('/api/auth', { method: 'POST', body })
    if (result.mfaRequired && !result.token) return { mfaRequired: true }
    await refresh()
    return { mfaRequired: false }
  }

  async function register(input: { email: string, username: string, password: string }): Promise<void> {
    await api('/api/auth', { method: 'POST', body: { action: 'register', ...input } })
    await refresh()
  }

  /** Signs out; a failure other than 401 (already signed out) is thrown and keeps the account signed in. */
  async function logout(): Promise<void> {
    try {
      await api('/api/auth/logout', { method: 'POST' })
    }
    catch (error) {
      if (errorStatus(error) !== 401) throw error
    }
    profile.value = null
    loadFailure.value = null
    loaded.value = true
    // What was typed here and not sent is this account's: the next person at the browser finds none.
    if (import.meta.client) forgetEveryDraft()
  }

  function changePassword(input: { currentPassword: string, newPassword: string, confirmPassword: string, mfaCode?: string }) {
    return api<v.InferOutput<typeof SuccessMessageSchema>>('/api/auth/change-password', { method: 'POST', body: input })
  }

  function forgotPassword(email: string) {
    return api<v.InferOutput<typeof MessageSchema>>('/api/auth/forgot-password', { method: 'POST', body: { email } })
  }

  /** Whether a reset token is live and needs an MFA code too; reads only (the token stays usable). */
  function checkResetToken(token: string) {
    return api<v.InferOutput<typeof ResetTokenStatusSchema>>('/api/auth/reset-password/check', { method: 'POST', body: { token } })
  }

  function resetPassword(input: { token: string, password: string, mfaCode?: string }) {
    return api<v.InferOutput<typeof MessageSchema>>('/api/auth/reset-password', { method: 'POST', body: input })
  }

  /** Proves the address with the mailed token; the signed-in account (if any) is read again, as it may now be verified or admin. */
  async function verifyEmail(token: string): Promise<void> {
    await api('/api/auth/verify-email', { method: 'POST', body: { token } })
    if (profile.value) await refresh()
  }

  /** Mails a new verification link to the signed-in account; older links stop working. */
  function resendVerification() {
    return api<v.InferOutput<typeof SuccessSchema>>('/api/auth/verify-email/resend', { method: 'POST' })
  }

  /**
   * For route guards: the error page to show when nobody is known to be signed
   * in because the account could not be loaded (not because of a 401), or null.
   */
  function unavailableError() {
    const failure = loadFailure.value
    if (!failure || profile.value) return null
    return createError({
      statusCode: failure.status || 503,
      statusMessage: failure.status === 429 ? 'Too Many Requests' : 'Service Unavailable',
      message: `Your account could not be loaded. ${failure.message}`,
      fatal: true,
    })
  }

  return { profile, user, signedIn, isAdmin, loaded, loadFailure, unavailableError, refresh, ensureLoaded, login, register, logout, changePassword, forgotPassword, checkResetToken, resetPassword, verifyEmail, resendVerification }
})

/**
 * For route guards: whether the server already answered this page with an
 * error, which the browser is now hydrating. A guard leaves such a page as it
 * is: refusing the navigation again would log each refusal as an error of the
 * app's start, and the page already says what the guard would.
 */
export function serverShowsError(): boolean {
  return import.meta.client && Boolean(useNuxtApp().isHydrating) && Boolean(useError().value)
}

/**
 * A sign-out button (the header's, the settings page's): signs out and goes to
 * the home page. A failure (a 429, no connection) keeps the account signed in
 * and says so in `error`, shown next to the button that was pressed.
 */
export function useSignOut() {
  const { logout } = useAuth()
  const { busy, error, run } = useAction({ failure: failure => `You are still signed in: signing out failed. ${errorMessage(failure)}` })
  const signOut = () => run(async () => {
    await logout()
    await navigateTo('/')
  })
  return { busy, error, signOut }
}
