import { getRequestHeader } from 'h3'
import { ReportSchema } from '#shared/schemas/reports'
import { UploadIdParamsSchema } from '#shared/schemas/uploads'
import { createReport } from '../../../services/reports'

/** POST /api/upload/{id}/report: an account or an anonymous visitor (fingerprint, hashed IP) reports an upload once. */
export default defineEventHandler(async (event) => {
  const actor = await getOptionalUser(event)
  const { id } = paramsValidated(event, UploadIdParamsSchema)
  const { clientFingerprint, ...input } = await readValidated(event, ReportSchema)
  const reporter = actor
    ? { actor }
    : { actor: null, clientFingerprint, visitor: { ip: clientIp(event), userAgent: getRequestHeader(event, 'user-agent'), secret: useSecrets().ipHashSecret } }
  const created = await createReport(useDB(), reporter, id, input)
  setResponseStatus(event, 201)
  return created
})
