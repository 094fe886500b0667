import { SuccessSchema } from '#shared/schemas/common'
import { AccountExportSchema, DeleteAccountSchema } from '#shared/schemas/own-data'
import { defineApiPaths } from '../utils/openapi'

export default defineApiPaths({
  '/api/profile/export': {
    get: {
      operationId: 'exportProfile',
      summary: 'Download the caller\'s own data',
      description: 'Profile, uploads (with media URLs), votes, API token, session, linked-account and report metadata, as an attachment. '
        + 'Never a secret (password, token or code hashes, TOTP secret, IP hashes). Cache-Control: private, no-store. '
        + 'Written as it is read; its ETag names that one export (each has its own exportedAt). At most 3 exports an hour per account (429 with Retry-After).',
      tags: ['Accounts'],
      security: ['cookie'],
      responses: {
        200: { description: 'The account\'s data', schema: AccountExportSchema, headers: { 'Content-Disposition': 'attachment; filename="does-it-fuck-<username>.json"' } },
        401: { description: 'Not authenticated' },
      },
    },
  },
  '/api/profile': {
    delete: {
      operationId: 'deleteProfile',
      summary: 'Delete the caller\'s account',
      description: 'Removes the account, its uploads and media, votes (the counts of every upload it voted on are recomputed), sessions, API '
        + 'tokens, linked accounts, MFA and reset codes and the reports it filed; moderation log entries stay with no actor. Confirmed by '
        + '`password` (and `mfaCode` when MFA is on). An account without a password gives `mfaCode`, or must have signed in within the last 10 minutes. Clears the cookie. '
        + 'Counted as AUTH; a wrong password and a wrong or missing code answer alike, so neither factor can be guessed alone.',
      tags: ['Accounts'],
      security: ['cookie'],
      body: { json: DeleteAccountSchema },
      responses: {
        200: { description: 'Deleted', schema: SuccessSchema, headers: { 'Set-Cookie': 'auth-token=; Max-Age=0; Path=/' } },
        400: { description: '`Password is required` (none sent), or `Invalid password or code` (a wrong password, or a wrong or missing MFA code)' },
        401: { description: 'Not authenticated' },
        403: { description: '`Sign in again to delete your account` (no password, no MFA, and the sign-in is older than 10 minutes)' },
        429: { description: 'Too many requests (AUTH category)', headers: { 'Retry-After': 'Seconds until the next request is accepted' } },
      },
    },
  },
})
