import { profileFromGitHub } from '../../services/oauth-accounts'

/** GET /auth/github: GitHub's web flow (nuxt-auth-utils), then sign-in or link. */
export default defineOAuthRoute('github', ({ redirectURL, signIn, onError }) => defineOAuthGitHubEventHandler({
  // Not `emailRequired`: that fails the sign-in when GitHub lists no primary e-mail.
  config: { redirectURL, scope: ['user:email'] },
  async onSuccess(event, { user, tokens }) {
    // GitHub's /user shows no verification flag: its e-mail list does.
    const { apiURL, clientId } = useRuntimeConfig(event).oauth.github
    await signIn(event, profileFromGitHub(user, await gitHubEmails(apiURL, tokens.access_token, clientId)))
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
