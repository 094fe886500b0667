import { profileFromGitHub } from '../../services/oauth'

/** GET /auth/github: GitHub's web flow (nuxt-auth-utils), then sign-in or link. */
export default defineOAuthRoute('github', ({ redirectURL, signIn, onError }) => defineOAuthGitHubEventHandler({
  config: { redirectURL, emailRequired: true },
  async onSuccess(event, { user, tokens }) {
    // GitHub's /user shows no verification flag: its e-mail list does.
    const emails = user.email_verified === undefined
      ? await gitHubEmails(useRuntimeConfig(event).oauth.github.apiURL, tokens.access_token, useRuntimeConfig(event).oauth.github.clientId)
      : []
    await signIn(event, profileFromGitHub(user, emails))
  },
  onError,
}))

/** `<apiURL>/user/emails`; an empty list (nothing verified) when GitHub refuses it. */
async function gitHubEmails(apiURL: string, accessToken: string, clientId: string): Promise<Record<string, unknown>[]> {
  const emails = await $fetch<unknown>(`${apiURL}/user/emails`, {
    headers: { 'User-Agent': `Github-OAuth-${clientId}`, 'Authorization': `token ${accessToken}` },
  }).catch(() => [])
  return Array.isArray(emails) ? emails : []
}
