import * as v from 'valibot'

// Response bodies of /api/auth/sessions (OpenAPI, server and UI).

export const SessionSchema = v.object({
  id: v.pipe(v.string(), v.uuid()),
  createdAt: v.string(),
  lastSeenAt: v.pipe(v.string(), v.description('Last request made with this session, updated at most once a minute')),
  userAgent: v.pipe(v.nullable(v.string()), v.description('The client\'s User-Agent at sign-in (at most 256 characters)')),
  current: v.pipe(v.boolean(), v.description('True for the session making this request')),
})

export const SessionListSchema = v.object({ sessions: v.array(SessionSchema) })

export type SessionInfo = v.InferOutput<typeof SessionSchema>
