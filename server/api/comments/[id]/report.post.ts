import { getRequestHeader } from 'h3'
import { CommentIdParamsSchema } from '#shared/schemas/comments'
import { ReportSchema } from '#shared/schemas/reports'
import { createCommentReport } from '../../../services/reports'

/** POST /api/comments/{id}/report: an account or an anonymous visitor (fingerprint, hashed IP) reports a comment once. */
export default defineEventHandler(async (event) => {
  const actor = await getOptionalUser(event)
  const { id } = paramsValidated(event, CommentIdParamsSchema)
  const { clientFingerprint, ...input } = await readValidated(event, ReportSchema)
  const reporter = actor
    ? { actor }
    : { actor: null, clientFingerprint, visitor: { ip: clientIp(event), userAgent: getRequestHeader(event, 'user-agent'), secret: useSecrets().ipHashSecret } }
  const created = await createCommentReport(useDB(), reporter, id, input)
  setResponseStatus(event, 201)
  return created
})
