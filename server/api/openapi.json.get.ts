import { ErrorSchema } from '#shared/schemas/common'
import { apiPaths } from '../openapi'

let document: ReturnType<typeof buildOpenApiDocument> | undefined

export default defineEventHandler(() => {
  document ??= buildOpenApiDocument(apiPaths, ErrorSchema, useRuntimeConfig().public.siteUrl)
  return document
})
