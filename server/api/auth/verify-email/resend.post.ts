/**
 * POST /api/auth/verify-email/resend (cookie): a new verification mail; older links stop working.
 * The JWT as a bearer is for the token endpoints alone (docs/behaviour.md, Authentication).
 */
export default defineEventHandler(async (event) => {
  const actor = await requireUser(event)
  await startEmailVerification(event, actor.id)
  return { success: true as const }
})
