import { sql } from 'drizzle-orm'
import { type AnySQLiteColumn, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { bestScoreSql, divisiveScoreSql, hotScoreSql, SQLITE_EPOCH } from './ranking-columns'

/** ISO 8601 UTC timestamp with milliseconds; sorts lexicographically. */
const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`
const createdAt = () => text('created_at').notNull().default(now)

export const users = sqliteTable('users', {
  id: text('id').primaryKey(),
  email: text('email'),
  username: text('username').notNull(),
  passwordHash: text('password_hash'),
  // Flags are stored as 0/1 (PostgreSQL's twin declares them integer), so one
  // SQL text compares them; raw rows carry 0/1 on both engines.
  isAdmin: integer('is_admin', { mode: 'boolean' }).notNull().default(false),
  shadowBanned: integer('shadow_banned', { mode: 'boolean' }).notNull().default(false),
  /**
   * The account proved it receives mail at `email` (a link from the verification mail, or a
   * provider that reports the address verified). Only a verified address is made admin by
   * NUXT_ADMIN_EMAILS, and an external sign-in with the same address takes over an
   * unverified account only after removing its credentials (docs/behaviour.md, Accounts).
   */
  emailVerified: integer('email_verified', { mode: 'boolean' }).notNull().default(false),
  mfaEnabled: integer('mfa_enabled', { mode: 'boolean' }).notNull().default(false),
  /** Blind voting (GET/PUT /api/profile/filters): a card's counts stay hidden until this account has voted on it. */
  blindVoting: integer('blind_voting', { mode: 'boolean' }).notNull().default(false),
  /** Whether the account's favourites are listed to others (PUT /api/profile/preferences); on by default. */
  publicFavourites: integer('public_favourites', { mode: 'boolean' }).notNull().default(true),
  /** What this account's lists do with explicit uploads (PUT /api/profile/preferences): show, blur (the default) or hide. */
  ratingExplicit: text('rating_explicit', { enum: ['show', 'blur', 'hide'] }).notNull().default('blur'),
  /** What this account's lists do with suggestive uploads: show (the default), blur or hide. */
  ratingSuggestive: text('rating_suggestive', { enum: ['show', 'blur', 'hide'] }).notNull().default('show'),
  /** Base32 TOTP secret; set (but not enabled) between setup and verify. */
  mfaSecret: text('mfa_secret'),
  /** Last accepted TOTP time step, so a code is never accepted twice. */
  mfaLastStep: integer('mfa_last_step'),
  /**
   * The account's public uploads, kept by triggers on uploads (the
   * user_public_upload_triggers migration), so a user's list answers its total
   * without counting their uploads.
   */
  publicUploads: integer('public_uploads').notNull().default(0),
  createdAt: createdAt(),
}, t => [
  uniqueIndex('users_email_unique').on(t.email),
  // Usernames are ASCII, so lower() folds them alike on both engines.
  uniqueIndex('users_username_lower_unique').on(sql`lower(${t.username})`),
])

export const sessions = sqliteTable('sessions', {
  id: text('id').primaryKey(),
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  createdAt: createdAt(),
  expiresAt: text('expires_at').notNull(),
  revokedAt: text('revoked_at'),
  /** The client's User-Agent at sign-in, cut to 256 characters. */
  userAgent: text('user_agent'),
  /** Last request seen with this session, written at most once a minute. */
  lastSeenAt: text('last_seen_at'),
}, t => [index('sessions_user_idx').on(t.userId)])

export const apiTokens = sqliteTable('api_tokens', {
  id: text('id').primaryKey(),
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  /** SHA-256 (hex) of the raw token; the raw value is never stored. */
  tokenHash: text('token_hash').notNull(),
  createdAt: createdAt(),
  expiresAt: text('expires_at').notNull(),
  lastUsedAt: text('last_used_at'),
}, t => [
  uniqueIndex('api_tokens_hash_unique').on(t.tokenHash),
  index('api_tokens_user_idx').on(t.userId),
])

export const mfaBackupCodes = sqliteTable('mfa_backup_codes', {
  id: text('id').primaryKey(),
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  codeHash: text('code_hash').notNull(),
  usedAt: text('used_at'),
  createdAt: createdAt(),
}, t => [index('mfa_backup_codes_user_idx').on(t.userId)])

export const passwordResetTokens = sqliteTable('password_reset_tokens', {
  id: text('id').primaryKey(),
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull(),
  expiresAt: text('expires_at').notNull(),
  usedAt: text('used_at'),
  createdAt: createdAt(),
}, t => [
  uniqueIndex('password_reset_tokens_hash_unique').on(t.tokenHash),
  index('password_reset_tokens_user_idx').on(t.userId),
])

/** E-mail verification links: 32 random bytes, stored hashed, valid 24 hours, used once. */
export const emailVerificationTokens = sqliteTable('email_verification_tokens', {
  id: text('id').primaryKey(),
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull(),
  expiresAt: text('expires_at').notNull(),
  usedAt: text('used_at'),
  createdAt: createdAt(),
}, t => [
  uniqueIndex('email_verification_tokens_hash_unique').on(t.tokenHash),
  index('email_verification_tokens_user_idx').on(t.userId),
])

/**
 * Media of deleted uploads still to be removed from the store. Written in the same
 * transaction that deletes the upload's row, removed once every key is gone, and
 * retried by any instance until then, so a store that is down or a crash mid-way
 * never leaves objects behind for good.
 */
export const mediaDeletions = sqliteTable('media_deletions', {
  uploadId: text('upload_id').primaryKey(),
  /** The original's key (`filename`); null for a link, which has no media. */
  filename: text('filename'),
  attempts: integer('attempts').notNull().default(0),
  /** When an instance may try again (ISO 8601 UTC). */
  nextAttemptAt: text('next_attempt_at').notNull().default(now),
  createdAt: createdAt(),
}, t => [index('media_deletions_next_attempt_idx').on(t.nextAttemptAt)])

/** WebAuthn credentials (passkeys): sign-in without a password. */
export const passkeys = sqliteTable('passkeys', {
  id: text('id').primaryKey(),
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  /** The credential id as the authenticator reports it (base64url). */
  credentialId: text('credential_id').notNull(),
  /** COSE public key (base64url). */
  publicKey: text('public_key').notNull(),
  /** Signature counter last seen; a response must raise it (unless the authenticator keeps none: 0). */
  counter: integer('counter').notNull().default(0),
  /** JSON array of transports (internal, usb, hybrid, …) as reported at registration. */
  transports: text('transports'),
  deviceType: text('device_type', { enum: ['singleDevice', 'multiDevice'] }).notNull(),
  backedUp: integer('backed_up').notNull().default(0),
  createdAt: createdAt(),
  lastUsedAt: text('last_used_at'),
}, t => [
  uniqueIndex('passkeys_credential_unique').on(t.credentialId),
  index('passkeys_user_idx').on(t.userId),
])

/**
 * Outstanding WebAuthn challenges, kept in the database so that any instance can
 * check an answer; each is consumed once (DELETE … RETURNING) and expires.
 */
export const webauthnChallenges = sqliteTable('webauthn_challenges', {
  /** The challenge itself (base64url), as the client echoes it in clientDataJSON. */
  challenge: text('challenge').primaryKey(),
  purpose: text('purpose', { enum: ['register', 'login'] }).notNull(),
  /** The account registering a passkey; null for a sign-in. */
  userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
  expiresAt: text('expires_at').notNull(),
  createdAt: createdAt(),
}, t => [index('webauthn_challenges_expires_idx').on(t.expiresAt)])

export const oauthAccounts = sqliteTable('oauth_accounts', {
  id: text('id').primaryKey(),
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  provider: text('provider', { enum: ['github', 'google', 'discord'] }).notNull(),
  providerUserId: text('provider_user_id').notNull(),
  email: text('email'),
  createdAt: createdAt(),
}, t => [
  uniqueIndex('oauth_accounts_provider_unique').on(t.provider, t.providerUserId),
  index('oauth_accounts_user_idx').on(t.userId),
])

export const uploads = sqliteTable('uploads', {
  id: text('id').primaryKey(),
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  filename: text('filename'),
  originalName: text('original_name').notNull(),
  description: text('description').notNull(),
  uploadType: text('upload_type', { enum: ['image', 'link'] }).notNull(),
  externalUrl: text('external_url'),
  mimeType: text('mime_type'),
  width: integer('width'),
  height: integer('height'),
  sizeBytes: integer('size_bytes'),
  /** SHA-256 (hex) of the stored, normalised image. */
  sha256: text('sha256'),
  /** SHA-256 (hex) of the bytes as received, so a repeat is refused before it is decoded. */
  sourceSha256: text('source_sha256'),
  /** 64-bit perceptual hash as 16 hex characters. */
  phash: text('phash'),
  /**
   * The perceptual hash's four 16-bit bands (4 hex digits each), computed by the
   * database from `phash` and indexed: two hashes within Hamming distance 6
   * share at least one band exactly, so the near-duplicate check looks up
   * only rows sharing a band.
   */
  phashBand0: text('phash_band0').generatedAlwaysAs(sql`substr(phash, 1, 4)`, { mode: 'virtual' }),
  phashBand1: text('phash_band1').generatedAlwaysAs(sql`substr(phash, 5, 4)`, { mode: 'virtual' }),
  phashBand2: text('phash_band2').generatedAlwaysAs(sql`substr(phash, 9, 4)`, { mode: 'virtual' }),
  phashBand3: text('phash_band3').generatedAlwaysAs(sql`substr(phash, 13, 4)`, { mode: 'virtual' }),
  upvotes: integer('upvotes').notNull().default(0),
  downvoteCount: integer('downvote_count').notNull().default(0),
  /** Accounts that favourited the upload (rows in favourites), kept by triggers on favourites (the favourites migration). */
  favourites: integer('favourites').notNull().default(0),
  /** Comments anyone may see (not deleted, author not shadow-banned), kept by triggers on comments and users (the comments migration). */
  comments: integer('comments').notNull().default(0),
  isPrivate: integer('is_private').notNull().default(0),
  /**
   * The upload's tag ids, comma-separated in the order they were added, kept by
   * triggers on upload_tags (the upload_tag_id_triggers migration), so a page of
   * uploads reads its tags with its rows instead of querying their links apart.
   */
  tagIds: text('tag_ids').notNull().default(''),
  createdAt: createdAt(),
  /** When the description, link or tags last changed (PATCH /api/upload/{id}); null until the first change. */
  editedAt: text('edited_at'),
  /** The upload's newest revision in upload_revisions (1 at creation). */
  revision: integer('revision').notNull().default(1),
  /** 1 while only admins may edit it (POST /api/admin/uploads/{id}/lock). */
  locked: integer('locked').notNull().default(0),
  /** The content rating (docs/behaviour.md, Curation): safe (the default), suggestive or explicit. */
  rating: text('rating', { enum: ['safe', 'suggestive', 'explicit'] }).notNull().default('safe'),
  /**
   * The rankings of shared/utils/ranking.ts, kept by the database itself from
   * the counts and created_at (so every write of the counts, a vote, a recount
   * or a seeded row, keeps them), and indexed for the public lists.
   */
  hotScore: real('hot_score').generatedAlwaysAs(sql.raw(hotScoreSql(SQLITE_EPOCH)), { mode: 'virtual' }),
  bestScore: real('best_score').generatedAlwaysAs(sql.raw(bestScoreSql), { mode: 'virtual' }),
  divisiveScore: real('divisive_score').generatedAlwaysAs(sql.raw(divisiveScoreSql), { mode: 'virtual' }),
  /**
   * The UTC day of created_at (YYYY-MM-DD). A period's page (top, best or
   * divisive over a day, week, month or year) reads each of the period's days
   * in score order from the day indexes below and merges their heads, so its
   * cost follows the number of days, not the uploads they hold.
   */
  createdDay: text('created_day').generatedAlwaysAs(sql`substr(created_at, 1, 10)`, { mode: 'virtual' }),
}, t => [
  index('uploads_public_newest_idx').on(t.createdAt, t.id).where(sql`${t.isPrivate} = 0`),
  index('uploads_public_top_idx').on(sql`${t.upvotes} desc`, sql`${t.downvoteCount} desc`, sql`${t.createdAt} desc`, sql`${t.id} desc`).where(sql`${t.isPrivate} = 0`),
  index('uploads_public_hot_idx').on(sql`${t.hotScore} desc`, sql`${t.createdAt} desc`, sql`${t.id} desc`).where(sql`${t.isPrivate} = 0`),
  index('uploads_public_best_idx').on(sql`${t.bestScore} desc`, sql`${t.createdAt} desc`, sql`${t.id} desc`).where(sql`${t.isPrivate} = 0`),
  index('uploads_public_divisive_idx').on(sql`${t.divisiveScore} desc`, sql`${t.createdAt} desc`, sql`${t.id} desc`).where(sql`${t.isPrivate} = 0`),
  index('uploads_public_day_top_idx').on(t.createdDay, sql`${t.upvotes} desc`, sql`${t.downvoteCount} desc`, sql`${t.createdAt} desc`, sql`${t.id} desc`).where(sql`${t.isPrivate} = 0`),
  index('uploads_public_day_best_idx').on(t.createdDay, sql`${t.bestScore} desc`, sql`${t.createdAt} desc`, sql`${t.id} desc`).where(sql`${t.isPrivate} = 0`),
  index('uploads_public_day_divisive_idx').on(t.createdDay, sql`${t.divisiveScore} desc`, sql`${t.createdAt} desc`, sql`${t.id} desc`).where(sql`${t.isPrivate} = 0`),
  index('uploads_public_favourites_idx').on(sql`${t.favourites} desc`, sql`${t.createdAt} desc`, sql`${t.id} desc`).where(sql`${t.isPrivate} = 0`),
  index('uploads_public_day_favourites_idx').on(t.createdDay, sql`${t.favourites} desc`, sql`${t.createdAt} desc`, sql`${t.id} desc`).where(sql`${t.isPrivate} = 0`),
  // A rating's newest public uploads (rating=explicit and the like): one range, however rare the rating.
  index('uploads_public_rating_newest_idx').on(t.rating, sql`${t.createdAt} desc`, sql`${t.id} desc`).where(sql`${t.isPrivate} = 0`),
  // A user's list in each of its orders (lists/sorts.ts USER_SORTS), ties to the id, the name in
  // byte order on both engines: a page is read from the index, however deep, with no sort.
  index('uploads_user_date_idx').on(t.userId, t.isPrivate, sql`${t.createdAt} desc`, sql`${t.id} desc`),
  index('uploads_user_votes_idx').on(t.userId, t.isPrivate, sql`${t.upvotes} desc`, sql`${t.createdAt} desc`, sql`${t.id} desc`),
  index('uploads_user_favourites_idx').on(t.userId, t.isPrivate, sql`${t.favourites} desc`, sql`${t.createdAt} desc`, sql`${t.id} desc`),
  index('uploads_user_name_idx').on(t.userId, t.isPrivate, sql`lower(${t.originalName})`, sql`${t.createdAt} desc`, sql`${t.id} desc`),
  // The image hashes, for duplicates and banned media: a link has none, and no entry here (its upload writes six index pages fewer).
  index('uploads_sha256_idx').on(t.sha256).where(sql`${t.sha256} IS NOT NULL`),
  index('uploads_source_sha256_idx').on(t.sourceSha256).where(sql`${t.sourceSha256} IS NOT NULL`),
  index('uploads_phash_band0_idx').on(t.phashBand0).where(sql`${t.phashBand0} IS NOT NULL`),
  index('uploads_phash_band1_idx').on(t.phashBand1).where(sql`${t.phashBand1} IS NOT NULL`),
  index('uploads_phash_band2_idx').on(t.phashBand2).where(sql`${t.phashBand2} IS NOT NULL`),
  index('uploads_phash_band3_idx').on(t.phashBand3).where(sql`${t.phashBand3} IS NOT NULL`),
])

export const tags = sqliteTable('tags', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  slug: text('slug').notNull(),
  /**
   * Public uploads carrying the tag, kept by triggers on upload_tags and uploads
   * (the tag_public_upload_triggers migration), so tag discovery reads it instead of
   * counting the whole upload_tags table.
   */
  publicUploads: integer('public_uploads').notNull().default(0),
  createdAt: createdAt(),
}, t => [
  uniqueIndex('tags_slug_unique').on(t.slug),
  index('tags_public_uploads_idx').on(t.publicUploads),
])

/**
 * Public uploads per UTC day of created_at (uploads.created_day), kept by triggers on
 * uploads (the upload_day_triggers migration) like users.public_uploads. A deep page of
 * the newest uploads sums these from the newest day to find the day its first row is
 * in, and reads on from that day instead of skipping every newer upload one by one.
 */
export const uploadDays = sqliteTable('upload_days', {
  day: text('day').primaryKey(),
  publicUploads: integer('public_uploads').notNull().default(0),
})

/**
 * Public uploads per UTC month of created_at ('YYYY-MM'), kept by triggers on uploads
 * (the upload_month_triggers migration) like upload_days. A deep page sums the months
 * first and then the days of one month, so its cost follows the months, not every day
 * since the first upload.
 */
export const uploadMonths = sqliteTable('upload_months', {
  month: text('month').primaryKey(),
  publicUploads: integer('public_uploads').notNull().default(0),
})

/**
 * Public uploads whose description has the word, one row per word a public description
 * has had, kept by triggers on uploads (the search_word_counts migration) with the words
 * the full-text index reads: SQLite's unicode61 tokenizer, PostgreSQL's search_vector.
 * A search for one common word reads its total here instead of counting every upload
 * that has it (docs/database.md, "Kept counts").
 */
export const searchWords = sqliteTable('search_words', {
  word: text('word').primaryKey(),
  publicUploads: integer('public_uploads').notNull().default(0),
})

/**
 * Public uploads carrying both tags of a pair (first_tag_id < second_tag_id), one row
 * per pair that has met on an upload, kept by triggers on upload_tags and uploads (the
 * tag_pair_triggers migration) like tags.public_uploads. The AND of two tags reads its
 * total here instead of counting the tags' whole intersection, which grows with them.
 * No route deletes a tag, so the pair needs no foreign key to drop with one.
 */
export const tagPairs = sqliteTable('tag_pairs', {
  firstTagId: text('first_tag_id').notNull(),
  secondTagId: text('second_tag_id').notNull(),
  publicUploads: integer('public_uploads').notNull().default(0),
}, t => [
  primaryKey({ columns: [t.firstTagId, t.secondTagId] }),
])

/**
 * Public uploads carrying all three tags of a triple (first_tag_id < second_tag_id <
 * third_tag_id), kept only for the triples a search has asked for: the first search of
 * `(a OR b) c` counts its three tags once and adds the row (services/lists/triples.ts),
 * and from then on triggers on upload_tags and uploads keep it like tag_pairs (the
 * tag_triples migration). Its total is then two pairs and a triple, each read by key.
 * A link written looks up the triples holding its tag (the second and third indexes),
 * so the rows per tag are capped. SQLite keeps it WITHOUT ROWID (its migration),
 * which this schema cannot say. No route deletes a tag, so no foreign keys.
 */
export const tagTriples = sqliteTable('tag_triples', {
  firstTagId: text('first_tag_id').notNull(),
  secondTagId: text('second_tag_id').notNull(),
  thirdTagId: text('third_tag_id').notNull(),
  publicUploads: integer('public_uploads').notNull().default(0),
}, t => [
  primaryKey({ columns: [t.firstTagId, t.secondTagId, t.thirdTagId] }),
  index('tag_triples_second_idx').on(t.secondTagId),
  index('tag_triples_third_idx').on(t.thirdTagId),
])

/**
 * A tag's public links with votes, per pair of counts their copies hold (fucks, does not
 * fuck): one row per tag and pair met, kept by triggers on upload_tags (the
 * tag_vote_counts migration), so they follow the links' copies of the counts
 * (docs/database.md, "Counts copied to links on read"). A search of one tag with count
 * tests (`votes:>=10 a`) sums the rows that pass instead of counting the tag's links,
 * which grow with the tag; rows that reach 0 stay. SQLite keeps it WITHOUT ROWID (its
 * migration), which this schema cannot say.
 */
export const tagVoteCounts = sqliteTable('tag_vote_counts', {
  tagId: text('tag_id').notNull(),
  upvotes: integer('upvotes').notNull(),
  downvotes: integer('downvotes').notNull(),
  links: integer('links').notNull().default(0),
}, t => [
  primaryKey({ columns: [t.tagId, t.upvotes, t.downvotes] }),
])

/** The columns of upload_tags its partial indexes test. */
interface LinkCopies { uploadIsPrivate: AnySQLiteColumn, uploadUpvotes: AnySQLiteColumn, uploadDownvoteCount: AnySQLiteColumn }

/**
 * Which links the ordered per-tag indexes hold (newest and the rankings):
 * public links of uploads with a vote. Uploads without one share their
 * counts and scores, so each ranking orders them by date alone (hot's score
 * grows with the date): they are one range of upload_tags_tag_unvoted_idx,
 * merged into each page of a tag
 * (server/services/lists/tags.ts, taggedIds), and a new link is written in
 * two per-tag indexes instead of seven (docs/database.md, "Unvoted links").
 * The queries repeat these conditions word for word, as SQLite uses a
 * partial index only for a query whose WHERE has each of its terms; each
 * of these indexes ends with the two counts the condition reads, so a page
 * is read from the index alone.
 */
const VOTED_PUBLIC_LINK = (t: LinkCopies) => sql`${t.uploadIsPrivate} = 0 AND ${t.uploadUpvotes} + ${t.uploadDownvoteCount} > 0`
const UNVOTED_PUBLIC_LINK = (t: LinkCopies) => sql`${t.uploadIsPrivate} = 0 AND ${t.uploadUpvotes} + ${t.uploadDownvoteCount} = 0`

export const uploadTags = sqliteTable('upload_tags', {
  uploadId: text('upload_id').notNull().references(() => uploads.id, { onDelete: 'cascade' }),
  tagId: text('tag_id').notNull().references(() => tags.id, { onDelete: 'cascade' }),
  /** Order of the tag on its upload (0, 1, …), as it was added. */
  position: integer('position').notNull().default(0),
  createdAt: createdAt(),
  /**
   * The upload's created_at and is_private, kept by triggers (see the
   * migrations), so a tag's public uploads newest first are two ranges, of
   * upload_tags_tag_newest_idx (with votes) and upload_tags_tag_unvoted_idx:
   * a tag's page reads its rows and no others.
   */
  uploadCreatedAt: text('upload_created_at').notNull().default(''),
  uploadIsPrivate: integer('upload_is_private').notNull().default(0),
  /**
   * The upload's counts and rankings, kept by triggers like its date, so a
   * tag's public uploads in each ranking are one range of that ranking's
   * index here (upload_tags_tag_top_idx … for uploads with votes,
   * upload_tags_tag_unvoted_idx for the others): a ranked tag page reads its
   * own rows, not all of the tag's uploads, whatever the tag's size.
   */
  uploadUpvotes: integer('upload_upvotes').notNull().default(0),
  uploadDownvoteCount: integer('upload_downvote_count').notNull().default(0),
  uploadHotScore: real('upload_hot_score').notNull().default(0),
  uploadBestScore: real('upload_best_score').notNull().default(0),
  uploadDivisiveScore: real('upload_divisive_score').notNull().default(0),
}, t => [
  primaryKey({ columns: [t.uploadId, t.tagId] }),
  index('upload_tags_tag_idx').on(t.tagId, t.uploadId),
  index('upload_tags_tag_newest_idx').on(t.tagId, t.uploadCreatedAt, t.uploadId, t.uploadUpvotes, t.uploadDownvoteCount).where(VOTED_PUBLIC_LINK(t)),
  index('upload_tags_tag_unvoted_idx').on(t.tagId, t.uploadCreatedAt, t.uploadId, t.uploadUpvotes, t.uploadDownvoteCount).where(UNVOTED_PUBLIC_LINK(t)),
  index('upload_tags_tag_top_idx').on(t.tagId, sql`${t.uploadUpvotes} desc`, sql`${t.uploadDownvoteCount} desc`, sql`${t.uploadCreatedAt} desc`, sql`${t.uploadId} desc`).where(VOTED_PUBLIC_LINK(t)),
  index('upload_tags_tag_hot_idx').on(t.tagId, sql`${t.uploadHotScore} desc`, sql`${t.uploadCreatedAt} desc`, sql`${t.uploadId} desc`, t.uploadUpvotes, t.uploadDownvoteCount).where(VOTED_PUBLIC_LINK(t)),
  index('upload_tags_tag_best_idx').on(t.tagId, sql`${t.uploadBestScore} desc`, sql`${t.uploadCreatedAt} desc`, sql`${t.uploadId} desc`, t.uploadUpvotes, t.uploadDownvoteCount).where(VOTED_PUBLIC_LINK(t)),
  index('upload_tags_tag_divisive_idx').on(t.tagId, sql`${t.uploadDivisiveScore} desc`, sql`${t.uploadCreatedAt} desc`, sql`${t.uploadId} desc`, t.uploadUpvotes, t.uploadDownvoteCount).where(VOTED_PUBLIC_LINK(t)),
])

export const votes = sqliteTable('votes', {
  id: text('id').primaryKey(),
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  uploadId: text('upload_id').notNull().references(() => uploads.id, { onDelete: 'cascade' }),
  vote: text('vote', { enum: ['fucks', 'does_not_fuck'] }).notNull(),
  createdAt: createdAt(),
  updatedAt: text('updated_at').notNull().default(now),
}, t => [
  uniqueIndex('votes_user_upload_unique').on(t.userId, t.uploadId),
  index('votes_upload_idx').on(t.uploadId),
])

/**
 * An account's favourite uploads (PUT/DELETE /api/upload/{id}/favourite): one row per
 * account and upload, held by the primary key under concurrency; uploads.favourites
 * counts them (triggers). Read newest first per account (favourites_user_newest_idx).
 */
export const favourites = sqliteTable('favourites', {
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  uploadId: text('upload_id').notNull().references(() => uploads.id, { onDelete: 'cascade' }),
  createdAt: createdAt(),
}, t => [
  primaryKey({ columns: [t.userId, t.uploadId] }),
  index('favourites_user_newest_idx').on(t.userId, t.createdAt, t.uploadId),
  index('favourites_upload_idx').on(t.uploadId),
])

/**
 * Comments on uploads (GET/POST /api/upload/{id}/comments): Markdown `body` and its
 * sanitised rendering `html`, stored together so a read never renders. Replies are one
 * level deep (`parent_id` is always a top-level comment). A deleted comment that has
 * replies stays with `deleted = 1` and an empty body; `score` is the sum of its
 * comment_votes, written in the vote's transaction. uploads.comments counts the visible
 * ones (triggers). `author_id` becomes null when the account is deleted.
 */
export const comments = sqliteTable('comments', {
  id: text('id').primaryKey(),
  uploadId: text('upload_id').notNull().references(() => uploads.id, { onDelete: 'cascade' }),
  authorId: text('author_id').references(() => users.id, { onDelete: 'set null' }),
  parentId: text('parent_id').references((): AnySQLiteColumn => comments.id, { onDelete: 'cascade' }),
  body: text('body').notNull(),
  html: text('html').notNull(),
  createdAt: createdAt(),
  editedAt: text('edited_at'),
  deleted: integer('deleted').notNull().default(0),
  score: integer('score').notNull().default(0),
}, t => [
  index('comments_upload_top_idx').on(t.uploadId, t.parentId, t.createdAt, t.id),
  index('comments_parent_idx').on(t.parentId, t.createdAt, t.id),
  index('comments_author_idx').on(t.authorId),
])

/** One vote (+1 or −1) per account and comment, held by the primary key under concurrency. */
export const commentVotes = sqliteTable('comment_votes', {
  commentId: text('comment_id').notNull().references(() => comments.id, { onDelete: 'cascade' }),
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  value: integer('value').notNull(),
  createdAt: createdAt(),
}, t => [
  primaryKey({ columns: [t.commentId, t.userId] }),
  index('comment_votes_user_idx').on(t.userId),
])

/**
 * How many votes each account has cast (its rows in votes), kept by triggers on votes
 * (the user_vote_count_triggers migration), so the profile every signed-in page reads
 * sums at most 16 rows instead of counting the votes. One row per account and first
 * character of the upload id (`shard`), so an account's votes at once (a script
 * voting through the API) seldom wait for one row: with one row, 32 connections voting
 * as one account queued on it. Not a column of users: a vote holds its voter's row FOR
 * SHARE, so two votes of one account writing that row would deadlock.
 */
/**
 * Uploads whose counts changed since their links' copies (upload_tags.upload_upvotes,
 * …_downvote_count and the three scores) were last written. A vote moves only the
 * upload's own row and adds it here (a trigger); a tag's ranked page copies the
 * counts of every upload listed here to its links before it reads them (and a sweep
 * does so in the background), so no page misses a vote, and a vote no longer rewrites
 * each of its upload's links in four indexes (docs/database.md, "Kept counts").
 */
export const rankCopiesPending = sqliteTable('rank_copies_pending', {
  uploadId: text('upload_id').primaryKey(),
})

export const userVoteCounts = sqliteTable('user_vote_counts', {
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  shard: text('shard').notNull(),
  votes: integer('votes').notNull().default(0),
}, t => [
  primaryKey({ columns: [t.userId, t.shard] }),
])

/**
 * An image's standing in This or That (docs/behaviour.md, This or That): its Elo
 * strength (from 1500, K = 24) and its counted wins and losses, one row per image
 * upload. Apart from the upload's row so that a judgement rewrites two narrow rows
 * and their three indexes, not the upload's row and its many (docs/database.md,
 * "Narrow rows for hot counters"). `in_pool` is a kept copy of "the upload is
 * public" (server/database/kept-counts.ts).
 */
export const duelStandings = sqliteTable('duel_standings', {
  uploadId: text('upload_id').primaryKey().references(() => uploads.id, { onDelete: 'cascade' }),
  inPool: integer('in_pool').notNull(),
  strength: real('strength').notNull().default(1500),
  wins: integer('wins').notNull().default(0),
  losses: integer('losses').notNull().default(0),
}, t => [
  // The duel pool in strength order: a pair's opponent is one of the nearest in it.
  index('duel_standings_pool_idx').on(t.strength, t.uploadId).where(sql`${t.inPool} = 1`),
  // The duel leaderboard: images judged at least 5 times, strongest first.
  index('duel_standings_ranked_idx').on(sql`${t.strength} desc`, sql`${t.uploadId} desc`).where(sql`${t.inPool} = 1 AND ${t.wins} + ${t.losses} >= 5`),
])

/**
 * One judgement of a This or That pair (docs/behaviour.md, This or That): its id is
 * the duel's own, so a duel is used once; the pair is stored low id first. The judge
 * is an account, or a visitor by fingerprint and keyed IP hash (as anonymous votes);
 * the unique indexes hold one judgement per judge and pair under concurrency and are
 * what the next pair is checked against. `counted` is 0 for a skip and for a
 * shadow-banned account, whose judgements move no strength.
 */
export const duelJudgements = sqliteTable('duel_judgements', {
  id: text('id').primaryKey(),
  lowId: text('low_id').notNull().references(() => uploads.id, { onDelete: 'cascade' }),
  highId: text('high_id').notNull().references(() => uploads.id, { onDelete: 'cascade' }),
  userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
  fingerprint: text('fingerprint'),
  ipHash: text('ip_hash'),
  winner: text('winner', { enum: ['low', 'high', 'skip'] }).notNull(),
  counted: integer('counted').notNull().default(0),
  createdAt: createdAt(),
}, t => [
  // Each only where its judge is named: an account's judgement is in the first alone, a visitor's in the other two.
  uniqueIndex('duel_judgements_user_pair_unique').on(t.userId, t.lowId, t.highId).where(sql`${t.userId} IS NOT NULL`),
  uniqueIndex('duel_judgements_fingerprint_pair_unique').on(t.fingerprint, t.lowId, t.highId).where(sql`${t.fingerprint} IS NOT NULL`),
  uniqueIndex('duel_judgements_ip_pair_unique').on(t.ipHash, t.lowId, t.highId).where(sql`${t.ipHash} IS NOT NULL`),
  index('duel_judgements_low_idx').on(t.lowId),
  index('duel_judgements_high_idx').on(t.highId),
])

export const anonymousVotes = sqliteTable('anonymous_votes', {
  id: text('id').primaryKey(),
  uploadId: text('upload_id').notNull().references(() => uploads.id, { onDelete: 'cascade' }),
  /** HMAC-SHA-256 of the client IP with a server secret; the IP itself is never stored. */
  ipHash: text('ip_hash').notNull(),
  fingerprint: text('fingerprint').notNull(),
  userAgentHash: text('user_agent_hash'),
  vote: text('vote', { enum: ['upvote', 'downvote'] }).notNull(),
  createdAt: createdAt(),
}, t => [
  // One vote per visitor and upload, held by the indexes themselves under concurrency.
  uniqueIndex('anonymous_votes_upload_ip_unique').on(t.uploadId, t.ipHash),
  uniqueIndex('anonymous_votes_upload_fingerprint_unique').on(t.uploadId, t.fingerprint),
])

/**
 * A visitor's report of an upload. The reporter is an account (`reporter_id`)
 * or an anonymous visitor (keyed IP hash and fingerprint, as anonymous votes).
 * One unresolved report per reporter and upload, held by the partial unique
 * indexes under concurrency. Kept when its upload is removed (listed with the upload's
 * tombstone, `removed_uploads`), so `upload_id` has no foreign key.
 */
export const reports = sqliteTable('reports', {
  id: text('id').primaryKey(),
  uploadId: text('upload_id').notNull(),
  /**
   * The reported comment (on `upload_id`), or '' for a report on the upload itself: part of
   * the group's key, so it is never null. Kept when the comment goes, so no foreign key.
   */
  commentId: text('comment_id').notNull().default(''),
  reporterId: text('reporter_id').references(() => users.id, { onDelete: 'cascade' }),
  /** HMAC-SHA-256 of an anonymous reporter's IP with a server secret; null for accounts. */
  ipHash: text('ip_hash'),
  fingerprint: text('fingerprint'),
  reason: text('reason', { enum: ['spam', 'illegal', 'minor_safety', 'harassment', 'copyright', 'other'] }).notNull(),
  details: text('details'),
  status: text('status', { enum: ['open', 'claimed', 'resolved'] }).notNull().default('open'),
  claimedBy: text('claimed_by').references(() => users.id, { onDelete: 'set null' }),
  resolution: text('resolution', { enum: ['dismiss', 'remove_upload', 'shadow_ban_uploader', 'remove_comment', 'shadow_ban_author'] }),
  resolvedAt: text('resolved_at'),
  createdAt: createdAt(),
}, t => [
  uniqueIndex('reports_open_reporter_unique').on(t.uploadId, t.commentId, t.reporterId).where(sql`${t.status} <> 'resolved'`),
  uniqueIndex('reports_open_ip_unique').on(t.uploadId, t.commentId, t.ipHash).where(sql`${t.status} <> 'resolved'`),
  uniqueIndex('reports_open_fingerprint_unique').on(t.uploadId, t.commentId, t.fingerprint).where(sql`${t.status} <> 'resolved'`),
  index('reports_status_upload_idx').on(t.status, t.uploadId, t.commentId),
  index('reports_reporter_idx').on(t.reporterId),
])

/**
 * The report queue's groups: one row per reported upload or comment and report status, kept by
 * triggers on reports (the report_groups migration) so the admin queue pages through
 * groups on an index instead of grouping every report. `reason_rank` is the place of the
 * group's gravest reason in REPORT_SEVERITY (0 = minor_safety, 5 = other), `first_at`
 * when its first report came in.
 */
export const reportGroups = sqliteTable('report_groups', {
  uploadId: text('upload_id').notNull(),
  /** The reported comment, or '' for the upload's own group (as on reports). */
  commentId: text('comment_id').notNull().default(''),
  status: text('status', { enum: ['open', 'claimed', 'resolved'] }).notNull(),
  reasonRank: integer('reason_rank').notNull(),
  reportCount: integer('report_count').notNull(),
  firstAt: text('first_at').notNull(),
}, t => [
  primaryKey({ columns: [t.uploadId, t.commentId, t.status] }),
  index('report_groups_queue_idx').on(t.status, t.reasonRank, t.firstAt, t.uploadId, t.commentId),
])

/**
 * What is left of a removed upload (docs/behaviour.md, "Curation"), written in the
 * transaction that deletes its row, so exactly one of the two exists. An admin's
 * removal keeps the description, uploader, type and reason (GET answers 410); an
 * owner's delete or an account deletion keeps only the id and when (GET answers 404).
 */
export const removedUploads = sqliteTable('removed_uploads', {
  id: text('id').primaryKey(),
  description: text('description'),
  uploaderId: text('uploader_id').references(() => users.id, { onDelete: 'set null' }),
  uploadType: text('upload_type', { enum: ['image', 'link'] }),
  removedAt: text('removed_at').notNull().default(now),
  removedBy: text('removed_by', { enum: ['admin', 'owner'] }).notNull(),
  reason: text('reason'),
})

/**
 * Images an admin removed and banned: an upload matching one exactly (either hash)
 * or within the duplicate distance of its perceptual hash is refused with 451. The
 * bands are indexed as on uploads, so the check is four index look-ups.
 */
export const bannedMedia = sqliteTable('banned_media', {
  id: text('id').primaryKey(),
  /** The stored file's SHA-256 and that of the bytes as they were received. */
  sha256: text('sha256').notNull(),
  sourceSha256: text('source_sha256'),
  phash: text('phash'),
  phashBand0: text('phash_band0').generatedAlwaysAs(sql`substr(phash, 1, 4)`, { mode: 'virtual' }),
  phashBand1: text('phash_band1').generatedAlwaysAs(sql`substr(phash, 5, 4)`, { mode: 'virtual' }),
  phashBand2: text('phash_band2').generatedAlwaysAs(sql`substr(phash, 9, 4)`, { mode: 'virtual' }),
  phashBand3: text('phash_band3').generatedAlwaysAs(sql`substr(phash, 13, 4)`, { mode: 'virtual' }),
  /** The removed upload (its tombstone's id). */
  uploadId: text('upload_id'),
  reason: text('reason'),
  createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
}, t => [
  index('banned_media_sha256_idx').on(t.sha256),
  index('banned_media_source_sha256_idx').on(t.sourceSha256),
  index('banned_media_phash_band0_idx').on(t.phashBand0),
  index('banned_media_phash_band1_idx').on(t.phashBand1),
  index('banned_media_phash_band2_idx').on(t.phashBand2),
  index('banned_media_phash_band3_idx').on(t.phashBand3),
  index('banned_media_newest_idx').on(t.createdAt, t.id),
])

/**
 * The moderation log: one row per admin action, written in the action's own
 * transaction and never edited. `actor_id` is null for the command line, and
 * becomes null when the acting account is deleted (the row stays).
 */
export const moderationLog = sqliteTable('moderation_log', {
  id: text('id').primaryKey(),
  actorId: text('actor_id').references(() => users.id, { onDelete: 'set null' }),
  /** The actor's username when the entry was written, so the entry stays named after the account is gone. */
  actorUsername: text('actor_username'),
  action: text('action', { enum: ['shadow_ban_on', 'shadow_ban_off', 'upload_removed', 'tag_added', 'report_claimed', 'report_resolved', 'admin_granted', 'admin_revoked', 'admin_account_deleted', 'upload_edited', 'upload_reverted', 'upload_locked', 'upload_unlocked', 'media_banned', 'media_unbanned', 'comment_removed', 'tag_alias_added', 'tag_alias_removed', 'tag_implication_added', 'tag_implication_removed'] }).notNull(),
  targetType: text('target_type', { enum: ['user', 'upload', 'report', 'comment', 'tag'] }).notNull(),
  targetId: text('target_id').notNull(),
  /** What the target was when the entry was written: a username, an upload's description (80 characters) or a report's reason. */
  targetLabel: text('target_label'),
  note: text('note'),
  createdAt: createdAt(),
}, t => [index('moderation_log_newest_idx').on(t.createdAt, t.id)])

/**
 * An upload's history: one row per change of its description, link or tags,
 * revision 1 its creation. `changes` is JSON `{ description?: { from, to },
 * externalUrl?: { from, to }, tagsAdded: [slug], tagsRemoved: [slug] }`; an
 * older state is the current one with the later rows' changes undone. The
 * actor becomes null when that account is deleted (the row stays).
 */
export const uploadRevisions = sqliteTable('upload_revisions', {
  uploadId: text('upload_id').notNull().references(() => uploads.id, { onDelete: 'cascade' }),
  revision: integer('revision').notNull(),
  actorId: text('actor_id').references(() => users.id, { onDelete: 'set null' }),
  changes: text('changes').notNull(),
  reason: text('reason'),
  createdAt: createdAt(),
}, t => [
  primaryKey({ columns: [t.uploadId, t.revision] }),
  index('upload_revisions_actor_idx').on(t.actorId),
])

/**
 * Tag aliases: a slug that resolves to another tag wherever a tag is read or
 * written (docs/behaviour.md, "Search"). The alias's own tag row, if any, stays
 * with no links.
 */
export const tagAliases = sqliteTable('tag_aliases', {
  slug: text('slug').primaryKey(),
  tagId: text('tag_id').notNull().references(() => tags.id),
  createdAt: createdAt(),
}, t => [index('tag_aliases_tag_idx').on(t.tagId)])

/** Tag implications: an upload carrying `tag_id` also carries `implied_tag_id` (within the tag cap). */
export const tagImplications = sqliteTable('tag_implications', {
  tagId: text('tag_id').notNull().references(() => tags.id),
  impliedTagId: text('implied_tag_id').notNull().references(() => tags.id),
  createdAt: createdAt(),
}, t => [
  primaryKey({ columns: [t.tagId, t.impliedTagId] }),
  index('tag_implications_implied_idx').on(t.impliedTagId, t.tagId),
])

/** Tags whose uploads a user does not want to see in any list (GET/PUT /api/profile/filters). */
export const userHiddenTags = sqliteTable('user_hidden_tags', {
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  /** A tag slug; it need not name an existing tag yet. */
  slug: text('slug').notNull(),
  createdAt: createdAt(),
}, t => [primaryKey({ columns: [t.userId, t.slug] })])

/** Generated secrets shared by every instance (used on PostgreSQL; SQLite keeps them in the data dir). */
export const appSecrets = sqliteTable('app_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: createdAt(),
})

/**
 * What a create sent with an `Idempotency-Key` answered (POST /api/upload, POST
 * /api/upload/{id}/comments), so the same request sent again gets the same answer
 * instead of a second upload or comment (docs/behaviour.md, Sending again). The row is
 * written in the create's transaction; an account's rows older than a day go as it
 * sends its next keyed request.
 */
export const requestKeys = sqliteTable('request_keys', {
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  /** The client's Idempotency-Key, unique per account. */
  key: text('key').notNull(),
  /** SHA-256 (hex) of the method, the path and what was sent: the same key for another request is refused. */
  fingerprint: text('fingerprint').notNull(),
  /** The answer's body (JSON), replayed with status 201. */
  answer: text('answer').notNull(),
  createdAt: createdAt(),
}, t => [primaryKey({ columns: [t.userId, t.key] })])

export type User = typeof users.$inferSelect
export type Upload = typeof uploads.$inferSelect
export type Tag = typeof tags.$inferSelect
