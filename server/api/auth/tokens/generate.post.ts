import { setResponseStatus } from 'h3'
import { GenerateTokenSchema } from '#shared/schemas/auth'
import { generateApiToken } from '../../../services/api-tokens'

/** POST /api/auth/tokens/generate (JWT bearer or cookie): a new API token, its value shown once. */
export default defineEventHandler(async (event) => {
  const actor = await requireUser(event, { allowBearer: true })
  const input = await readValidated(event, GenerateTokenSchema)
  const token = await generateApiToken(useDB(), actor.id, input)
  setResponseStatus(event, 201)
  return token
})
