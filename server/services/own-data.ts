import type { Executor, Row } from '../database/port'
import type { apiTokens, oauthAccounts, passkeys, reports, sessions, uploads, users, votes } from '../database/schema-postgres'
import { FOR_UPDATE, sql } from '../database/sql'
import { verifyPassword } from './accounts'
import { apiError } from './errors'
import { isMfaEnabled, verifyMfaCode } from './mfa'
import { logModeration } from './modlog'
import type { MediaStore } from './media-store'
import type { Actor } from './sessions'
import { deleteUpload } from './uploads'
import { recountUploads } from './votes'

/** How recent a sign-in must be for an account without a password (and without MFA) to be deleted. */
export const FRESH_SIGN_IN_MS = 10 * 60 * 1000

/** Rows read per statement while an export is written. */
export const EXPORT_PAGE_ROWS = 100

type ExportUploadRow = Pick<Row<typeof uploads>, 'id' | 'upload_type' | 'filename' | 'original_name' | 'description' | 'external_url'
  | 'mime_type' | 'width' | 'height' | 'size_bytes' | 'is_private' | 'upvotes' | 'downvote_count' | 'created_at'>

/**
 * GET /api/profile/export: everything the service keeps about the account,
 * with media as absolute URLs, as the pieces of one JSON document. Secrets
 * (password and token hashes, the TOTP secret, backup codes, IP hashes) are
 * never part of it.
 *
 * Written as it is read, so an account's size does not become the server's
 * memory: uploads, votes, favourites and duel judgements, the parts that grow
 * without bound, are read a page of `pageRows` at a time by key (uploads by
 * creation, the others by upload id, the order of the index that holds them), and the next page is read only
 * once the reader asks for more (a stream built on this waits for the client).
 */
export async function* exportAccount(db: Executor, actor: Actor, siteUrl: string, options: { now?: number, pageRows?: number } = {}): AsyncGenerator<string> {
  const site = siteUrl.replace(/\/+$/, '')
  const pageRows = options.pageRows ?? EXPORT_PAGE_ROWS
  const user = (await db.get<Pick<Row<typeof users>, 'id' | 'username' | 'email' | 'created_at' | 'mfa_enabled' | 'shadow_banned'> & { has_password: number }>(sql`
    SELECT id, username, email, created_at, mfa_enabled, shadow_banned, CASE WHEN password_hash IS NOT NULL THEN 1 ELSE 0 END AS has_password
    FROM users WHERE id = ${actor.id}`))!
  const profile = {
    id: user.id,
    username: user.username,
    email: user.email,
    createdAt: user.created_at,
    isAdmin: actor.isAdmin,
    mfaEnabled: user.mfa_enabled === 1,
    hasPassword: user.has_password === 1,
  }
  yield `{"exportedAt":${JSON.stringify(new Date(options.now ?? Date.now()).toISOString())},"profile":${JSON.stringify(profile)},"uploads":[`

  let comma = ''
  let afterUpload: ExportUploadRow | undefined
  for (;;) {
    const rows = await db.all<ExportUploadRow>(sql`
      SELECT id, upload_type, filename, original_name, description, external_url, mime_type, width, height, size_bytes, is_private,
        upvotes, downvote_count, created_at FROM uploads WHERE user_id = ${actor.id}
      ${afterUpload ? sql`AND (created_at > ${afterUpload.created_at} OR (created_at = ${afterUpload.created_at} AND id > ${afterUpload.id}))` : sql``}
      ORDER BY created_at, id LIMIT ${pageRows}`)
    if (rows.length === 0) break
    const tagRows = await db.all<{ upload_id: string, name: string }>(sql`SELECT ut.upload_id, t.name FROM upload_tags ut JOIN tags t ON t.id = ut.tag_id
      WHERE ut.upload_id IN (${sql.join(rows.map(row => sql`${row.id}`))}) ORDER BY ut.upload_id, ut.position`)
    const tagsByUpload = new Map<string, string[]>()
    for (const row of tagRows) tagsByUpload.set(row.upload_id, [...tagsByUpload.get(row.upload_id) ?? [], row.name])
    let text = ''
    for (const row of rows) {
      text += comma + JSON.stringify({
        id: row.id,
        uploadType: row.upload_type,
        originalName: row.original_name,
        description: row.description,
        externalUrl: row.external_url,
        isPrivate: row.is_private === 1,
        tags: tagsByUpload.get(row.id) ?? [],
        upvotes: row.upvotes,
        downvotes: row.downvote_count,
        createdAt: row.created_at,
        page: `${site}/upload/${row.id}`,
        media: row.upload_type === 'image' && row.filename
          ? { url: `${site}/api/image/${row.id}`, thumbnailUrl: `${site}/api/image/${row.id}?size=thumb`, mimeType: row.mime_type, width: row.width, height: row.height, sizeBytes: row.size_bytes }
          : null,
      })
      comma = ','
    }
    yield text
    if (rows.length < pageRows) break
    afterUpload = rows.at(-1)
  }

  yield '],"votes":['
  comma = ''
  let afterVote: string | undefined
  for (;;) {
    // Read along votes_user_upload_unique: each page is a range of that index, never a sort of all the account's votes.
    const rows = await db.all<Pick<Row<typeof votes>, 'upload_id' | 'vote' | 'created_at' | 'updated_at'>>(sql`
      SELECT upload_id, vote, created_at, updated_at FROM votes WHERE user_id = ${actor.id}
      ${afterVote === undefined ? sql`` : sql`AND upload_id > ${afterVote}`} ORDER BY upload_id LIMIT ${pageRows}`)
    if (rows.length === 0) break
    let text = ''
    for (const row of rows) {
      text += comma + JSON.stringify({ uploadId: row.upload_id, vote: row.vote, createdAt: row.created_at, updatedAt: row.updated_at })
      comma = ','
    }
    yield text
    if (rows.length < pageRows) break
    afterVote = rows.at(-1)!.upload_id
  }

  yield '],"favourites":['
  comma = ''
  let afterFavourite: string | undefined
  for (;;) {
    // Along the favourites key (user_id, upload_id), as the votes.
    const rows = await db.all<{ upload_id: string, created_at: string }>(sql`
      SELECT upload_id, created_at FROM favourites WHERE user_id = ${actor.id}
      ${afterFavourite === undefined ? sql`` : sql`AND upload_id > ${afterFavourite}`} ORDER BY upload_id LIMIT ${pageRows}`)
    if (rows.length === 0) break
    let text = ''
    for (const row of rows) {
      text += comma + JSON.stringify({ uploadId: row.upload_id, createdAt: row.created_at })
      comma = ','
    }
    yield text
    if (rows.length < pageRows) break
    afterFavourite = rows.at(-1)!.upload_id
  }

  yield '],"duelJudgements":['
  comma = ''
  let afterJudgement: { low_id: string, high_id: string } | undefined
  for (;;) {
    // Along duel_judgements_user_pair_unique (user_id, low_id, high_id).
    const rows = await db.all<{ low_id: string, high_id: string, winner: 'low' | 'high' | 'skip', created_at: string }>(sql`
      SELECT low_id, high_id, winner, created_at FROM duel_judgements WHERE user_id = ${actor.id}
      ${afterJudgement ? sql`AND (low_id > ${afterJudgement.low_id} OR (low_id = ${afterJudgement.low_id} AND high_id > ${afterJudgement.high_id}))` : sql``}
      ORDER BY low_id, high_id LIMIT ${pageRows}`)
    if (rows.length === 0) break
    let text = ''
    for (const row of rows) {
      const winnerId = row.winner === 'skip' ? null : row.winner === 'low' ? row.low_id : row.high_id
      text += comma + JSON.stringify({ uploadIds: [row.low_id, row.high_id], winnerId, createdAt: row.created_at })
      comma = ','
    }
    yield text
    if (rows.length < pageRows) break
    afterJudgement = rows.at(-1)
  }

  // A handful of rows each (tokens, sessions, linked accounts, passkeys, reports filed).
  const [tokenRows, sessionRows, oauthRows, passkeyRows, reportRows] = await Promise.all([
    db.all<Pick<Row<typeof apiTokens>, 'id' | 'name' | 'created_at' | 'expires_at' | 'last_used_at'>>(sql`
      SELECT id, name, created_at, expires_at, last_used_at FROM api_tokens WHERE user_id = ${actor.id} ORDER BY created_at, id`),
    db.all<Pick<Row<typeof sessions>, 'id' | 'created_at' | 'expires_at' | 'revoked_at'>>(sql`
      SELECT id, created_at, expires_at, revoked_at FROM sessions WHERE user_id = ${actor.id} ORDER BY created_at, id`),
    db.all<Pick<Row<typeof oauthAccounts>, 'provider' | 'email' | 'created_at'>>(sql`
      SELECT provider, email, created_at FROM oauth_accounts WHERE user_id = ${actor.id} ORDER BY provider`),
    db.all<Pick<Row<typeof passkeys>, 'id' | 'name' | 'created_at' | 'last_used_at'>>(sql`
      SELECT id, name, created_at, last_used_at FROM passkeys WHERE user_id = ${actor.id} ORDER BY created_at, id`),
    db.all<Pick<Row<typeof reports>, 'id' | 'upload_id' | 'reason' | 'details' | 'status' | 'created_at'>>(sql`
      SELECT id, upload_id, reason, details, status, created_at FROM reports WHERE reporter_id = ${actor.id} ORDER BY created_at, id`),
  ])
  const rest = {
    apiTokens: tokenRows.map(row => ({ id: row.id, name: row.name, createdAt: row.created_at, expiresAt: row.expires_at, lastUsedAt: row.last_used_at })),
    sessions: sessionRows.map(row => ({ id: row.id, createdAt: row.created_at, expiresAt: row.expires_at, revokedAt: row.revoked_at })),
    linkedAccounts: oauthRows.map(row => ({ provider: row.provider, email: row.email, createdAt: row.created_at })),
    passkeys: passkeyRows.map(row => ({ id: row.id, name: row.name, createdAt: row.created_at, lastUsedAt: row.last_used_at })),
    reports: reportRows.map(row => ({ id: row.id, uploadId: row.upload_id, reason: row.reason, details: row.details, status: row.status, createdAt: row.created_at })),
  }
  yield `],${JSON.stringify(rest).slice(1)}`
}

/** The one answer to a wrong password or a wrong or missing MFA code, so it never tells which factor was right. */
export const DELETION_REFUSED = 'Invalid password or code'

/**
 * The confirmation DELETE /api/profile asks for: the password (and the MFA
 * code when MFA is on); an account without a password gives its MFA code, or
 * signed in within the last 10 minutes. A wrong or missing factor is one 400
 * (`DELETION_REFUSED`); 403 for a sign-in that is too old (an account with
 * neither password nor MFA).
 */
async function confirmDeletion(db: Executor, actor: Actor, input: { password?: string, mfaCode?: string }, now: number): Promise<void> {
  const row = await db.get<{ password_hash: string | null, session_created_at: string | null }>(sql`
    SELECT u.password_hash, s.created_at AS session_created_at FROM users u LEFT JOIN sessions s ON s.id = ${actor.sessionId ?? ''}
    WHERE u.id = ${actor.id}`)
  // Deleted since its session was checked (another deletion of the account finished first).
  if (!row) throw apiError(401, 'Invalid or expired token')
  const mfaOn = await isMfaEnabled(db, actor.id)
  if (row.password_hash !== null) {
    if (!input.password) throw apiError(400, 'Password is required')
    const passwordOk = await verifyPassword(row.password_hash, input.password)
    // The code is checked only after a right password, so a guess never spends the caller's TOTP step.
    if (!passwordOk || (mfaOn && !(input.mfaCode && await verifyMfaCode(db, actor.id, input.mfaCode, now)))) throw apiError(400, DELETION_REFUSED)
    return
  }
  if (mfaOn && input.mfaCode) {
    if (!await verifyMfaCode(db, actor.id, input.mfaCode, now)) throw apiError(400, DELETION_REFUSED)
    return
  }
  const signedIn = row.session_created_at ? Date.parse(row.session_created_at) : 0
  if (now - signedIn <= FRESH_SIGN_IN_MS) return
  throw mfaOn ? apiError(400, DELETION_REFUSED) : apiError(403, 'Sign in again to delete your account')
}

/**
 * An upload that something else (its owner's other session, an admin, a
 * second deletion of the account) removed after it was listed: already what
 * the account's deletion wants, so it goes on.
 */
function ignoreGone(error: unknown): void {
  if ((error as { statusCode?: unknown })?.statusCode !== 404) throw error
}

/**
 * DELETE /api/profile: removes the account and everything it owns. Its
 * uploads go first, each with its files, through the one upload removal.
 * Then, in one transaction: the account is shadow-banned and the uploads it
 * voted on recounted (so its votes stop counting), and the user row goes,
 * taking with it (ON DELETE CASCADE) votes, favourites, sessions, API tokens, OAuth
 * links, MFA backup codes, reset tokens and reports it filed. Moderation log
 * entries it wrote stay, their actor's id set to null (the username
 * stays); an admin's deletion is itself logged.
 */
export async function deleteAccount(db: Executor, actor: Actor, input: { password?: string, mfaCode?: string }, store: MediaStore, now = Date.now()) {
  await confirmDeletion(db, actor, input, now)
  const owner = { ...actor, isAdmin: false }
  for (;;) {
    const batch = await db.all<{ id: string }>(sql`SELECT id FROM uploads WHERE user_id = ${actor.id} ORDER BY id LIMIT 100`)
    if (batch.length === 0) break
    for (const { id } of batch) await deleteUpload(db, id, owner, store).catch(ignoreGone)
  }
  await db.transaction(async (tx) => {
    const user = await tx.get(sql`UPDATE users SET shadow_banned = 1 WHERE id = ${actor.id} RETURNING id`)
    if (!user) throw apiError(401, 'Invalid or expired token')
    await recountUploads(tx, sql`SELECT upload_id AS id FROM votes WHERE user_id = ${actor.id}`)
    // An upload that arrived while the others were removed: its row goes with the account, its files here.
    const late = await tx.all<{ id: string }>(sql`SELECT id FROM uploads WHERE user_id = ${actor.id}${FOR_UPDATE}`)
    for (const { id } of late) await deleteUpload(tx, id, owner, store).catch(ignoreGone)
    // The uploads it has as favourites, in id order as recountUploads takes them: the cascade below
    // moves their counts (favourites_count) and would otherwise lock them in whatever order it meets them.
    await tx.all(sql`SELECT id FROM uploads WHERE id IN (SELECT upload_id FROM favourites WHERE user_id = ${actor.id}) ORDER BY id${FOR_UPDATE}`)
    if (actor.isAdmin) await logModeration(tx, { actorId: actor.id, action: 'admin_account_deleted', targetType: 'user', targetId: actor.id })
    await tx.run(sql`DELETE FROM users WHERE id = ${actor.id}`)
  })
  return { success: true as const }
}
