import { randomUUID } from 'node:crypto'
import { repairKeptCounts } from '../../server/database/kept-counts'
import type { Executor } from '../../server/database/port'
import { sql } from '../../server/database/sql'
import { upsertTag } from '../../server/services/upload-tags'
import { parseTagName } from '../../shared/utils/tags'

/** An upload row to write; everything but the owner has a default. */
export interface SeedUpload {
  id?: string
  userId: string
  description?: string
  uploadType?: 'image' | 'link'
  filename?: string | null
  originalName?: string
  externalUrl?: string | null
  isPrivate?: boolean
  createdAt?: string
  upvotes?: number
  downvotes?: number
  tags?: string[]
}

/**
 * Inserts for test fixtures and the benchmark database, on either engine.
 * Rows are written as the app would store them; counters are taken as given
 * (the caller keeps them equal to the vote rows it writes).
 */
export function createSeeder(db: Executor) {
  const tagIds = new Map<string, string>()

  async function tag(name: string): Promise<string> {
    const parsed = parseTagName(name)
    if (!parsed) throw new Error(`invalid tag name: ${name}`)
    let id = tagIds.get(parsed.slug)
    if (!id) {
      id = await upsertTag(db, parsed)
      tagIds.set(parsed.slug, id)
    }
    return id
  }

  return {
    async user(input: { id?: string, username: string, email?: string | null, createdAt?: string }): Promise<string> {
      const id = input.id ?? randomUUID()
      await db.run(sql`INSERT INTO users (id, email, username, password_hash, created_at)
        VALUES (${id}, ${input.email ?? null}, ${input.username}, NULL, ${input.createdAt ?? new Date().toISOString()})`)
      return id
    },
    async upload(input: SeedUpload): Promise<string> {
      const row = uploadRow(input)
      await insertRows(db, 'uploads', UPLOAD_COLUMNS, [row])
      let position = 0
      for (const name of input.tags ?? []) {
        await db.run(sql`INSERT INTO upload_tags (upload_id, tag_id, position) VALUES (${row[0]}, ${await tag(name)}, ${position++})
          ON CONFLICT DO NOTHING`)
      }
      return row[0] as string
    },
    tag,
    /** A user's vote row only; the caller keeps the upload's counters in step. */
    async vote(userId: string, uploadId: string, vote: 'fucks' | 'does_not_fuck'): Promise<string> {
      const id = randomUUID()
      await db.run(sql`INSERT INTO votes (id, user_id, upload_id, vote) VALUES (${id}, ${userId}, ${uploadId}, ${vote})`)
      return id
    },
  }
}

const UPLOAD_COLUMNS = ['id', 'user_id', 'filename', 'original_name', 'description', 'upload_type', 'external_url', 'mime_type',
  'upvotes', 'downvote_count', 'is_private', 'created_at', 'tag_ids']
const TAG_IDS = UPLOAD_COLUMNS.indexOf('tag_ids')
const CREATED_AT = UPLOAD_COLUMNS.indexOf('created_at')
const IS_PRIVATE = UPLOAD_COLUMNS.indexOf('is_private')

/** An upload's values in UPLOAD_COLUMNS order, with the defaults filled in. */
function uploadRow(input: SeedUpload): unknown[] {
  const id = input.id ?? randomUUID()
  const type = input.uploadType ?? 'image'
  const filename = input.filename !== undefined ? input.filename : type === 'image' ? `${id}.png` : null
  const externalUrl = input.externalUrl !== undefined ? input.externalUrl : type === 'link' ? `https://example.com/${id}` : null
  return [id, input.userId, filename, input.originalName ?? (filename ?? externalUrl ?? id), input.description ?? `Upload ${id.slice(0, 8)}`,
    type, externalUrl, type === 'image' ? 'image/png' : null, input.upvotes ?? 0, input.downvotes ?? 0, input.isPrivate ? 1 : 0,
    input.createdAt ?? new Date().toISOString(), '']
}

/** Many rows in few statements (500 a statement), for bulk loads on either engine. */
async function insertRows(db: Executor, table: string, columns: string[], rows: unknown[][], suffix = ''): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) {
    const values = rows.slice(i, i + 500).map(row => sql`(${sql.join(row.map(value => sql`${value}`))})`)
    await db.run(sql`INSERT INTO ${sql.raw(table)} (${sql.raw(columns.join(', '))}) VALUES ${sql.join(values)}${sql.raw(suffix)}`)
  }
}

export type Seeder = ReturnType<typeof createSeeder>

/** A small deterministic PRNG (mulberry32), so a seeded database is the same every run. */
export function random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6D2B79F5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export interface BulkOptions {
  uploads: number
  /** Votes in total (default 10 per upload). */
  votes?: number
  tags?: number
  users?: number
  /** Progress lines go here (default: none). */
  log?: (line: string) => void
}

/** Usernames of the bulk data set: `seed_user_0` owns 1% of the uploads, the rest are spread evenly. */
export const bulkUsername = (index: number) => `seed_user_${index}`
/** Tag names of the bulk data set; lower numbers are used more often. */
export const bulkTagName = (index: number) => `tag ${index}`

/**
 * A large, realistic data set in one transaction: users, uploads spread over
 * the three years before now (5% private), 0–5 tags each from a skewed
 * distribution, and votes from distinct users, fewer on young uploads (as a
 * live site has them: a new upload scores low on every ranking but `new`),
 * with every counter equal to its vote rows.
 */
export async function seedBulk(db: Executor, options: BulkOptions) {
  const rand = random(42)
  const uploads = options.uploads
  const totalVotes = options.votes ?? uploads * 10
  const tagCount = options.tags ?? 2000
  const userCount = Math.max(options.users ?? Math.ceil(uploads / 20), 200)
  const log = options.log ?? (() => {})
  const dayMs = 24 * 3600 * 1000
  const spanMs = 3 * 365 * dayMs
  const end = Math.floor(Date.now() / 1000) * 1000 - 60_000
  const start = end - spanMs
  const createdAt = (i: number) => start + Math.floor((i / uploads) * spanMs)

  await db.transaction(async (tx) => {
    const seeder = createSeeder(tx)
    const users: string[] = []
    const userRows: unknown[][] = []
    for (let i = 0; i < userCount; i++) {
      const id = randomUUID()
      users.push(id)
      userRows.push([id, `${bulkUsername(i)}@seed.test`, bulkUsername(i), new Date(start - dayMs).toISOString()])
    }
    await insertRows(tx, 'users', ['id', 'email', 'username', 'created_at'], userRows)
    const tagIds: string[] = []
    for (let i = 0; i < tagCount; i++) tagIds.push(await seeder.tag(bulkTagName(i)))
    log(`users ${userCount}, tags ${tagCount}`)

    const ids: string[] = []
    const uploadRows: unknown[][] = []
    const links: unknown[][] = []
    for (let i = 0; i < uploads; i++) {
      const owner = rand() < 0.01 ? users[0]! : users[1 + Math.floor(rand() * (userCount - 1))]!
      const type = rand() < 0.8 ? 'image' : 'link'
      const row = uploadRow({
        userId: owner,
        uploadType: type,
        originalName: type === 'image' ? `photo-${i}.png` : undefined,
        description: `Seeded upload number ${i}`,
        isPrivate: rand() < 0.05,
        createdAt: new Date(createdAt(i)).toISOString(),
      })
      const id = row[0] as string
      ids.push(id)
      uploadRows.push(row)
      const tagsHere = Math.floor(rand() * 6)
      const seen = new Set<string>()
      for (let t = 0; t < tagsHere; t++) {
        const tagId = tagIds[Math.floor(tagCount * rand() ** 2)]!
        if (!seen.has(tagId)) links.push([id, tagId, seen.size, row[CREATED_AT], row[IS_PRIVATE]])
        seen.add(tagId)
      }
      row[TAG_IDS] = [...seen].join(',')
    }

    // Votes: a skewed number per upload (a few popular ones), growing with age over the first
    // weeks, distinct voters per upload, exactly `totalVotes`.
    const average = totalVotes / uploads
    const maturity = (i: number) => 1 - Math.exp(-(end - createdAt(i)) / (14 * dayMs))
    const shares = ids.map((_, i) => Math.min(userCount, Math.floor(average * 4 * rand() ** 3 * maturity(i))))
    let sum = shares.reduce((a, b) => a + b, 0)
    while (sum !== totalVotes) {
      const i = Math.floor(rand() * uploads)
      if (sum < totalVotes && shares[i]! < userCount) {
        shares[i]!++
        sum++
      }
      else if (sum > totalVotes && shares[i]! > 0) {
        shares[i]!--
        sum--
      }
    }
    // Each upload's votes come from a generator of its own, so they can be replayed: once
    // for the counters written with the upload, once more to write the vote rows in chunks
    // (a million uploads' ten million votes never sit in memory at once).
    const votesOf = function* (i: number) {
      const own = random(i + 1)
      const first = Math.floor(own() * userCount)
      for (let k = 0; k < shares[i]!; k++) yield { userId: users[(first + k) % userCount]!, isUp: own() < 0.6 }
    }
    for (let i = 0; i < uploads; i++) {
      let up = 0
      for (const vote of votesOf(i)) if (vote.isUp) up++
      const row = uploadRows[i]!
      row[8] = up
      row[9] = shares[i]! - up
    }
    // On PostgreSQL the triggers that keep counts and tag ids (see the migrations) are held
    // off for this load and their columns written once, set-based, after it: within one
    // transaction every row they update again (a tag's count, a day's, an owner's) keeps each
    // earlier version, so each update walked a longer chain, and the tag ids trigger rewrote
    // an upload and every index on it per link: a million uploads' links went at under a
    // thousand a second. Upload rows carry their tag ids already, and links their upload's
    // date and privacy. SQLite's triggers stay.
    const postgres = tx.dialect === 'postgres'
    const kept = ['uploads', 'upload_tags', 'votes']
    const SEED_FILLS = ['upload_days.public_uploads', 'upload_months.public_uploads', 'users.public_uploads', 'tags.public_uploads',
      'tag_pairs.public_uploads', 'tag_triples.public_uploads', 'user_vote_counts.votes', 'upload_tags.upload_*', 'tag_vote_counts.links', 'duel_standings.in_pool',
      'search_words.public_uploads']
    if (postgres) await tx.exec(kept.map(table => `ALTER TABLE ${table} DISABLE TRIGGER USER;`).join(' '))
    await insertRows(tx, 'uploads', UPLOAD_COLUMNS, uploadRows)
    log(`uploads ${uploads}`)
    await insertRows(tx, 'upload_tags', ['upload_id', 'tag_id', 'position', 'upload_created_at', 'upload_is_private'], links)
    let chunk: unknown[][] = []
    let written = 0
    for (let i = 0; i < uploads; i++) {
      for (const vote of votesOf(i)) chunk.push([randomUUID(), vote.userId, ids[i]!, vote.isUp ? 'fucks' : 'does_not_fuck'])
      if (chunk.length >= 100_000 || i === uploads - 1) {
        await insertRows(tx, 'votes', ['id', 'user_id', 'upload_id', 'vote'], chunk)
        written += chunk.length
        chunk = []
        log(`votes ${written}`)
      }
    }
    if (postgres) {
      // The counts and link copies the triggers would have kept, from their recounts
      // (links were written with their upload's date and privacy, not its counts and
      // scores); the upload rows carry their vote counts and tag ids already. Still
      // without the triggers: with them, the links' copies written here would be
      // counted again per pair of votes from the whole statement's before and after.
      await repairKeptCounts(tx, count => SEED_FILLS.includes(count.name))
      await tx.exec(kept.map(table => `ALTER TABLE ${table} ENABLE TRIGGER USER;`).join(' '))
      log('counts')
    }
    else {
      // The links' copies of their upload's counts and scores, which the upload rows carry
      // already; SQLite's triggers kept the rest as the rows went in.
      await repairKeptCounts(tx, count => count.name === 'upload_tags.upload_*')
      log('link copies')
    }
  })
  return { users: userCount, uploads, tags: tagCount, votes: totalVotes }
}
