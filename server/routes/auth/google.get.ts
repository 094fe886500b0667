import { profileFromGoogle } from '../../services/oauth-accounts'

/** GET /auth/google: Google's web flow (nuxt-auth-utils), then sign-in or link. */
export default defineOAuthRoute('google', ({ redirectURL, signIn, onError }) => defineOAuthGoogleEventHandler({
  config: { redirectURL },
  onSuccess: (event, { user }) => signIn(event, profileFromGoogle(user)),
  onError,
}))
