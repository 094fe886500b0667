export interface MfaSetup {
  qrCode: string
  secret: string
  otpauthUrl: string
  backupCodes: string[]
}

/** Setting up, confirming and switching off TOTP multi-factor authentication. */
export function useMfa() {
  const api = useApi()
  const setup = () => api<MfaSetup>('/api/auth/mfa/setup', { method: 'POST' })
  const verify = (mfaCode: string) => api<{ success: boolean, mfaEnabled: boolean }>('/api/auth/mfa/verify', { method: 'POST', body: { mfaCode } })
  const disable = (password: string, mfaCode: string) =>
    api<{ success: boolean, mfaEnabled: boolean }>('/api/auth/mfa/disable', { method: 'POST', body: { password, mfaCode } })
  return { setup, verify, disable }
}
