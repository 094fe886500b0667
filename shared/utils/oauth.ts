/** The identity providers of external sign-in (service-spec "Authentication", rule 4). */
export const OAUTH_PROVIDERS = ['github', 'google', 'discord'] as const

export type OAuthProvider = typeof OAUTH_PROVIDERS[number]

export const OAUTH_PROVIDER_LABELS: Record<OAuthProvider, string> = {
  github: 'GitHub',
  google: 'Google',
  discord: 'Discord',
}
