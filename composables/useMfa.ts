import type * as v from 'valibot'
import type { MfaSetupSchema, MfaStateSchema } from '#shared/schemas/auth'

export type MfaSetup = v.InferOutput<typeof MfaSetupSchema>
type MfaState = v.InferOutput<typeof MfaStateSchema>

/** Setting up, confirming and switching off TOTP multi-factor authentication. */
export function useMfa() {
  const api = useApi()
  const setup = () => api<MfaSetup>('/api/auth/mfa/setup', { method: 'POST' })
  const verify = (mfaCode: string) => api<MfaState>('/api/auth/mfa/verify', { method: 'POST', body: { mfaCode } })
  const disable = (password: string, mfaCode: string) =>
    api<MfaState>('/api/auth/mfa/disable', { method: 'POST', body: { password, mfaCode } })
  return { setup, verify, disable }
}
