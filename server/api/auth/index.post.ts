import { setResponseStatus } from 'h3'
import { AuthSchema } from '#shared/schemas/auth'
import { findAccountByEmail, registerAccount, syncAdminFlag, verifyPassword } from '../../services/accounts'
import { verifyMfaCode } from '../../services/mfa'

/** POST /api/auth: `action: "register"` (201) or `action: "login"`. */
export default defineEventHandler(async (event) => {
  const input = await readValidated(event, AuthSchema)
  const db = useDB()

  if (input.action === 'register') {
    // The address is unproved until the mailed link is opened: no admin, no trust for external sign-in.
    const user = await registerAccount(db, input)
    await startEmailVerification(event, user.id)
    const token = await startSession(event, user.id)
    setResponseStatus(event, 201)
    return { user, token, mfaRequired: false }
  }

  const account = await findAccountByEmail(db, input.email)
  if (!await verifyPassword(account?.password_hash ?? null, input.password) || !account) {
    throw unauthorized('Invalid email or password')
  }
  if (account.mfa_enabled) {
    // Without a code the client is asked for one; no session is started yet.
    if (!input.mfaCode) return { mfaRequired: true }
    if (!await verifyMfaCode(db, account.id, input.mfaCode)) throw unauthorized('Invalid MFA code')
  }
  await syncAdminFlag(db, account.id, account.email, adminEmails())
  const token = await startSession(event, account.id)
  return { user: { id: account.id, username: account.username, email: account.email }, token, mfaRequired: false }
})
