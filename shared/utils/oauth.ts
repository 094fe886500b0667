/** The identity providers of external sign-in (docs/behaviour.md, OAuth). */
export const OAUTH_PROVIDERS = ['github', 'google', 'discord'] as const

export type OAuthProvider = typeof OAUTH_PROVIDERS[number]

export const OAUTH_PROVIDER_LABELS: Record<OAuthProvider, string> = {
  github: 'GitHub',
  google: 'Google',
  discord: 'Discord',
}
