import { createServer, type Server } from 'node:http'
import { randomUUID } from 'node:crypto'
import { OAuth2Server } from 'oauth2-mock-server'

export type MockProvider = 'github' | 'google' | 'discord'

type Json = Record<string, unknown>

/**
 * Local stand-ins for GitHub, Google and Discord on 127.0.0.1: oauth2-mock-server
 * answers /authorize and /token; a small HTTP server answers each provider's
 * user-info endpoints (GitHub /user and /user/emails, Google userinfo,
 * Discord /users/@me) with what the test set.
 */
export interface OAuthMock {
  /** NUXT_OAUTH_* settings pointing all three providers here. */
  env: Record<string, string>
  /** What the provider's user endpoint answers next (and until changed). */
  setUser: (provider: MockProvider, user: Json, githubEmails?: Json[]) => void
  /** The next authorize answers `error=access_denied` instead of a code. */
  refuseNextAuthorize: () => void
  /** The next token request answers 401 `{ error: 'invalid_grant' }`. */
  failNextToken: () => void
  /** User-info requests answer 500 until the next `setUser` (ofetch retries once). */
  failUserInfo: () => void
  /** Authorization headers the user-info endpoints received. */
  userInfoAuthorizations: string[]
  stop: () => Promise<void>
}

export async function startOAuthMock(): Promise<OAuthMock> {
  const oauth = new OAuth2Server()
  await oauth.issuer.keys.generate('RS256')
  await oauth.start(0, '127.0.0.1')
  const issuer = oauth.issuer.url!.replace(/\/+$/, '')

  // GitHub's authorize request carries no response_type (GitHub needs none);
  // the mock refuses that, so answer it with a code as GitHub would.
  oauth.service.on('beforeAuthorizeRedirect', (redirect: { url: URL }, req: { query?: Json }) => {
    if (!req.query?.response_type && redirect.url.searchParams.get('error') === 'unsupported_response_type') {
      redirect.url.searchParams.delete('error')
      redirect.url.searchParams.delete('error_description')
      redirect.url.searchParams.set('code', randomUUID())
    }
  })

  const users: Partial<Record<MockProvider, Json>> = {}
  let emails: Json[] = []
  let failUserInfo = false
  const userInfoAuthorizations: string[] = []
  const routes: Record<string, () => unknown> = {
    '/github/user': () => users.github,
    '/github/user/emails': () => emails,
    '/google/userinfo': () => users.google,
    '/discord/users/@me': () => users.discord,
  }
  const api: Server = createServer((req, res) => {
    const route = routes[new URL(req.url!, 'http://x').pathname]
    userInfoAuthorizations.push(String(req.headers.authorization ?? ''))
    const body = route?.()
    let status = route && body !== undefined && req.headers.authorization ? 200 : 404
    if (status === 200 && failUserInfo) status = 500
    res.writeHead(status, { 'content-type': 'application/json' })
    res.end(JSON.stringify(status === 200 ? body : { message: 'error' }))
  })
  await new Promise<void>(resolve => api.listen(0, '127.0.0.1', resolve))
  const apiUrl = `http://127.0.0.1:${(api.address() as { port: number }).port}`

  const env: Record<string, string> = {}
  for (const provider of ['github', 'google', 'discord'] as const) {
    const prefix = `NUXT_OAUTH_${provider.toUpperCase()}_`
    env[`${prefix}CLIENT_ID`] = `${provider}-client`
    env[`${prefix}CLIENT_SECRET`] = `${provider}-secret`
    env[`${prefix}AUTHORIZATION_URL`] = `${issuer}/authorize`
    env[`${prefix}TOKEN_URL`] = `${issuer}/token`
  }
  env.NUXT_OAUTH_GITHUB_API_URL = `${apiUrl}/github`
  env.NUXT_OAUTH_GOOGLE_USER_URL = `${apiUrl}/google/userinfo`
  env.NUXT_OAUTH_DISCORD_USER_URL = `${apiUrl}/discord/users/@me`

  return {
    env,
    setUser(provider, user, githubEmails = []) {
      users[provider] = user
      failUserInfo = false
      if (provider === 'github') emails = githubEmails
    },
    refuseNextAuthorize() {
      oauth.service.once('beforeAuthorizeRedirect', (redirect: { url: URL }) => {
        redirect.url.searchParams.delete('code')
        redirect.url.searchParams.set('error', 'access_denied')
      })
    },
    failNextToken() {
      oauth.service.once('beforeResponse', (response: { statusCode: number, body: unknown }) => {
        response.statusCode = 401
        response.body = { error: 'invalid_grant', error_description: '<b>code expired</b>' }
      })
    },
    failUserInfo() {
      failUserInfo = true
    },
    userInfoAuthorizations,
    async stop() {
      await oauth.stop()
      await new Promise(resolve => api.close(resolve))
    },
  }
}

/** A minimal cookie jar for one origin: what Set-Cookie said, sent back as Cookie. */
export class CookieJar {
  readonly cookies = new Map<string, string>()

  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';')
      const at = pair.indexOf('=')
      const name = pair.slice(0, at).trim()
      const value = pair.slice(at + 1).trim()
      if (!value || /;\s*max-age=0\b/i.test(line)) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
  }
}

/** A GET as a browser would send it (HTML wanted), without following redirects. */
export async function browse(url: string, jar: CookieJar): Promise<Response> {
  const response = await fetch(url, { redirect: 'manual', headers: { accept: 'text/html', cookie: jar.header() } })
  jar.store(response)
  return response
}

export interface FlowResult {
  /** The provider's callback URL (to our /auth/<provider>) with code and state. */
  callbackUrl: string
  /** Our answer to the callback. */
  callback: Response
  jar: CookieJar
}

/**
 * Runs the redirect flow: /auth/<provider> → provider authorize → back to the
 * callback, carrying cookies. `tamper` may change the callback URL first.
 */
export async function runOAuthFlow(baseURL: string, provider: MockProvider, options: { jar?: CookieJar, tamper?: (url: URL) => void } = {}): Promise<FlowResult> {
  const jar = options.jar ?? new CookieJar()
  const start = await browse(`${baseURL}/auth/${provider}`, jar)
  if (start.status !== 302) throw new Error(`/auth/${provider} answered ${start.status}`)
  const authorize = await fetch(start.headers.get('location')!, { redirect: 'manual' })
  if (authorize.status !== 302) throw new Error(`authorize answered ${authorize.status}`)
  const callbackUrl = new URL(authorize.headers.get('location')!)
  options.tamper?.(callbackUrl)
  const callback = await browse(callbackUrl.href, jar)
  return { callbackUrl: callbackUrl.href, callback, jar }
}
