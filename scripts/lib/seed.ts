import { randomUUID } from 'node:crypto'
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
  'upvotes', 'downvote_count', 'is_private', 'created_at']

/** An upload's values in UPLOAD_COLUMNS order, with the defaults filled in. */
function uploadRow(input: SeedUpload): unknown[] {
  const id = input.id ?? randomUUID()
  const type = input.uploadType ?? 'image'
  const filename = input.filename !== undefined ? input.filename : type === 'image' ? `${id}.png` : null
  const externalUrl = input.externalUrl !== undefined ? input.externalUrl : type === 'link' ? `https://example.com/${id}` : null
  return [id, input.userId, filename, input.originalName ?? (filename ?? externalUrl ?? id), input.description ?? `Upload ${id.slice(0, 8)}`,
    type, externalUrl, type === 'image' ? 'image/png' : null, input.upvotes ?? 0, input.downvotes ?? 0, input.isPrivate ? 1 : 0,
    input.createdAt ?? new Date().toISOString()]
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
 * a year (5% private), 0–5 tags each from a skewed distribution, and votes
 * from distinct users, with every counter equal to its vote rows.
 */
export async function seedBulk(db: Executor, options: BulkOptions) {
  const rand = random(42)
  const uploads = options.uploads
  const totalVotes = options.votes ?? uploads * 10
  const tagCount = options.tags ?? 2000
  const userCount = Math.max(options.users ?? Math.ceil(uploads / 20), 200)
  const log = options.log ?? (() => {})
  const start = Date.parse('2026-01-01T00:00:00.000Z')
  const yearMs = 365 * 24 * 3600 * 1000

  await db.transaction(async (tx) => {
    const seeder = createSeeder(tx)
    const users: string[] = []
    const userRows: unknown[][] = []
    for (let i = 0; i < userCount; i++) {
      const id = randomUUID()
      users.push(id)
      userRows.push([id, `${bulkUsername(i)}@seed.test`, bulkUsername(i), new Date(start - yearMs).toISOString()])
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
        createdAt: new Date(start + Math.floor((i / uploads) * yearMs)).toISOString(),
      })
      const id = row[0] as string
      ids.push(id)
      uploadRows.push(row)
      const tagsHere = Math.floor(rand() * 6)
      const seen = new Set<string>()
      for (let t = 0; t < tagsHere; t++) {
        const tagId = tagIds[Math.floor(tagCount * rand() ** 2)]!
        if (!seen.has(tagId)) links.push([id, tagId, seen.size])
        seen.add(tagId)
      }
    }

    // Votes: a skewed number per upload (a few popular ones), distinct voters per upload, exactly `totalVotes`.
    const average = totalVotes / uploads
    const shares = ids.map(() => Math.min(userCount, Math.floor(average * 4 * rand() ** 3)))
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
    const voteRows: unknown[][] = []
    for (let i = 0; i < uploads; i++) {
      const first = Math.floor(rand() * userCount)
      let up = 0
      for (let k = 0; k < shares[i]!; k++) {
        const isUp = rand() < 0.6
        voteRows.push([randomUUID(), users[(first + k) % userCount]!, ids[i]!, isUp ? 'fucks' : 'does_not_fuck'])
        if (isUp) up++
      }
      const row = uploadRows[i]!
      row[8] = up
      row[9] = shares[i]! - up
    }
    await insertRows(tx, 'uploads', UPLOAD_COLUMNS, uploadRows)
    log(`uploads ${uploads}`)
    await insertRows(tx, 'upload_tags', ['upload_id', 'tag_id', 'position'], links)
    for (let i = 0; i < voteRows.length; i += 100_000) {
      await insertRows(tx, 'votes', ['id', 'user_id', 'upload_id', 'vote'], voteRows.slice(i, i + 100_000))
      log(`votes ${Math.min(i + 100_000, voteRows.length)}`)
    }
  })
  return { users: userCount, uploads, tags: tagCount, votes: totalVotes }
}
