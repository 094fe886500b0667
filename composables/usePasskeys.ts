import { browserSupportsWebAuthn, startAuthentication, startRegistration } from '@simplewebauthn/browser'
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser'
import type * as v from 'valibot'
import type { SuccessSchema } from '#shared/schemas/common'
import type { PasskeyCreatedSchema, PasskeyInfo, PasskeyListSchema } from '#shared/schemas/passkeys'

export type { PasskeyInfo }

/**
 * Passkeys (WebAuthn): add one to the signed-in account, list and delete them,
 * and sign in with one (no password, no MFA step).
 */
export function usePasskeys() {
  const api = useApi()
  const { refresh } = useAuth()

  const list = () => api<v.InferOutput<typeof PasskeyListSchema>>('/api/auth/passkeys')
  const remove = (id: string) => api<v.InferOutput<typeof SuccessSchema>>(`/api/auth/passkeys/${id}`, { method: 'DELETE' })

  /** Asks the browser's authenticator for a new passkey and stores it under `name`. */
  async function add(name: string): Promise<PasskeyInfo> {
    const optionsJSON = await api<PublicKeyCredentialCreationOptionsJSON>('/api/auth/passkeys/register/options', { method: 'POST' })
    const response = await startRegistration({ optionsJSON })
    const body = { name, response: response as unknown as Record<string, unknown> }
    return (await api<v.InferOutput<typeof PasskeyCreatedSchema>>('/api/auth/passkeys/register/verify', { method: 'POST', body })).passkey
  }

  /** Signs in with any passkey of this site the browser offers. */
  async function signIn(): Promise<void> {
    const optionsJSON = await api<PublicKeyCredentialRequestOptionsJSON>('/api/auth/passkeys/login/options', { method: 'POST' })
    const response = await startAuthentication({ optionsJSON })
    await api('/api/auth/passkeys/login/verify', { method: 'POST', body: { response: response as unknown as Record<string, unknown> } })
    await refresh()
  }

  return { supported: () => browserSupportsWebAuthn(), list, add, remove, signIn }
}

/** A sentence for a failed passkey action: the server's message, or what the browser said. */
export function passkeyErrorMessage(error: unknown): string {
  if (errorStatus(error) || errorBody(error)) return errorMessage(error)
  const name = (error as { name?: string } | null)?.name
  if (name === 'NotAllowedError' || name === 'AbortError') return 'The passkey request was cancelled or timed out.'
  if (name === 'InvalidStateError') return 'This device already holds a passkey for your account.'
  if (name === 'SecurityError') return 'Passkeys are not available on this address of the site.'
  return errorMessage(error, 'Your browser could not use a passkey.')
}
