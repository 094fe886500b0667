/** Any /api path no route answers: a 404 in the error shape (not Nuxt's HTML page). */
export default defineEventHandler(() => {
  throw notFound('Not found')
})
