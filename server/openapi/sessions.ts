import { IdParamsSchema, SuccessSchema } from '#shared/schemas/common'
import { SessionListSchema } from '#shared/schemas/sessions'
import { defineApiPaths } from '../utils/openapi'

const tags = ['Accounts']
const unauthenticated = { 401: { description: 'Not signed in, or the token is invalid, expired or revoked (`Invalid or expired token`)' } }

export default defineApiPaths({
  '/api/auth/sessions': {
    get: {
      operationId: 'listSessions',
      summary: 'The caller\'s signed-in sessions',
      description: 'Live sessions only (not revoked, not expired), most recently used first. `lastSeenAt` is updated at most once a minute. Cache-Control: private, no-store.',
      tags,
      security: ['cookie'],
      responses: { 200: { description: 'Sessions; `current` marks the one making this request', schema: SessionListSchema }, ...unauthenticated },
    },
  },
  '/api/auth/sessions/{id}': {
    delete: {
      operationId: 'revokeSession',
      summary: 'Sign one session out',
      description: 'Its JWT is refused from then on (401 `Invalid or expired token`). Revoking the current session also clears the auth-token cookie.',
      tags,
      security: ['cookie'],
      params: { path: IdParamsSchema },
      responses: {
        200: { description: 'Revoked', schema: SuccessSchema },
        400: { description: 'Malformed id (`Invalid ID`)' },
        ...unauthenticated,
        404: { description: 'Unknown or ended session, or another user\'s (`Session not found`)' },
      },
    },
  },
})
