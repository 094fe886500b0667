import { profileFromDiscord } from '../../services/oauth-accounts'

/** GET /auth/discord: Discord's web flow (our handler in nuxt-auth-utils' shape), then sign-in or link. */
export default defineOAuthRoute('discord', ({ redirectURL, signIn, onError }) => defineDiscordOAuthHandler({
  config: { redirectURL, emailRequired: true },
  onSuccess: (event, { user }) => signIn(event, profileFromDiscord(user)),
  onError,
}))
