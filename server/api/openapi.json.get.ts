import { apiComponents } from '../openapi'

let document: ReturnType<typeof buildOpenApiDocument> | undefined

export default defineEventHandler(() => {
  document ??= buildOpenApiDocument([documentedPaths()], apiComponents, useRuntimeConfig().public.siteUrl)
  return document
})
