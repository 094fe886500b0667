/** POST /api/auth/verify-email/resend (cookie or bearer): a new verification mail; older links stop working. */
export default defineEventHandler(async (event) => {
  const actor = await requireUser(event, { allowBearer: true })
  await startEmailVerification(event, actor.id)
  return { success: true as const }
})
