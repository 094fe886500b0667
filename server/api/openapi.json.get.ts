import { apiComponents, apiPaths } from '../openapi'

let document: ReturnType<typeof buildOpenApiDocument> | undefined

export default defineEventHandler(() => {
  document ??= buildOpenApiDocument(apiPaths, apiComponents, useRuntimeConfig().public.siteUrl)
  return document
})
