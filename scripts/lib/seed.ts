import { randomUUID } from 'node:crypto'
import type Database from 'better-sqlite3'
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
 * Prepared inserts for test fixtures and the benchmark database. Rows are
 * written as the app would store them; counters are taken as given (the
 * caller keeps them equal to the vote rows it writes).
 */
export function createSeeder(sqlite: Database.Database) {
  const insertUser = sqlite.prepare(`INSERT INTO users (id, email, username, password_hash, created_at)
    VALUES (?, ?, ?, NULL, coalesce(?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')))`)
  const insertUpload = sqlite.prepare(`INSERT INTO uploads (id, user_id, filename, original_name, description, upload_type,
      external_url, mime_type, upvotes, downvote_count, is_private, created_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, coalesce(?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')))`)
  const upsertTag = sqlite.prepare(`INSERT INTO tags (id, name, slug) VALUES (?, ?, ?)
    ON CONFLICT (slug) DO UPDATE SET slug = excluded.slug RETURNING id`)
  const insertLink = sqlite.prepare('INSERT OR IGNORE INTO upload_tags (upload_id, tag_id) VALUES (?, ?)')
  const insertVote = sqlite.prepare('INSERT INTO votes (id, user_id, upload_id, vote) VALUES (?, ?, ?, ?)')
  const tagIds = new Map<string, string>()

  function tag(name: string): string {
    const parsed = parseTagName(name)
    if (!parsed) throw new Error(`invalid tag name: ${name}`)
    let id = tagIds.get(parsed.slug)
    if (!id) {
      id = (upsertTag.get(randomUUID(), parsed.name, parsed.slug) as { id: string }).id
      tagIds.set(parsed.slug, id)
    }
    return id
  }

  return {
    user(input: { id?: string, username: string, email?: string | null, createdAt?: string }): string {
      const id = input.id ?? randomUUID()
      insertUser.run(id, input.email ?? null, input.username, input.createdAt ?? null)
      return id
    },
    upload(input: SeedUpload): string {
      const id = input.id ?? randomUUID()
      const type = input.uploadType ?? 'image'
      const filename = input.filename !== undefined ? input.filename : type === 'image' ? `${id}.png` : null
      const externalUrl = input.externalUrl !== undefined ? input.externalUrl : type === 'link' ? `https://example.com/${id}` : null
      insertUpload.run(id, input.userId, filename, input.originalName ?? (filename ?? externalUrl ?? id),
        input.description ?? `Upload ${id.slice(0, 8)}`, type, externalUrl, type === 'image' ? 'image/png' : null,
        input.upvotes ?? 0, input.downvotes ?? 0, input.isPrivate ? 1 : 0, input.createdAt ?? null)
      for (const name of input.tags ?? []) insertLink.run(id, tag(name))
      return id
    },
    tag,
    /** A user's vote row only; the caller keeps the upload's counters in step. */
    vote(userId: string, uploadId: string, vote: 'fucks' | 'does_not_fuck'): string {
      const id = randomUUID()
      insertVote.run(id, userId, uploadId, vote)
      return id
    },
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
export function seedBulk(sqlite: Database.Database, options: BulkOptions) {
  const rand = random(42)
  const uploads = options.uploads
  const totalVotes = options.votes ?? uploads * 10
  const tagCount = options.tags ?? 2000
  const userCount = Math.max(options.users ?? Math.ceil(uploads / 20), 200)
  const seeder = createSeeder(sqlite)
  const log = options.log ?? (() => {})
  const start = Date.parse('2026-01-01T00:00:00.000Z')
  const yearMs = 365 * 24 * 3600 * 1000

  sqlite.transaction(() => {
    const users: string[] = []
    for (let i = 0; i < userCount; i++) {
      users.push(seeder.user({ username: bulkUsername(i), email: `${bulkUsername(i)}@seed.test`, createdAt: new Date(start - yearMs).toISOString() }))
    }
    const tagIds: string[] = []
    for (let i = 0; i < tagCount; i++) tagIds.push(seeder.tag(bulkTagName(i)))
    log(`users ${userCount}, tags ${tagCount}`)

    const setCounts = sqlite.prepare('UPDATE uploads SET upvotes = ?, downvote_count = ? WHERE id = ?')
    const link = sqlite.prepare('INSERT OR IGNORE INTO upload_tags (upload_id, tag_id) VALUES (?, ?)')
    const ids: string[] = []
    for (let i = 0; i < uploads; i++) {
      const owner = rand() < 0.01 ? users[0]! : users[1 + Math.floor(rand() * (userCount - 1))]!
      const type = rand() < 0.8 ? 'image' : 'link'
      const id = seeder.upload({
        userId: owner,
        uploadType: type,
        originalName: type === 'image' ? `photo-${i}.png` : undefined,
        description: `Seeded upload number ${i}`,
        isPrivate: rand() < 0.05,
        createdAt: new Date(start + Math.floor((i / uploads) * yearMs)).toISOString(),
      })
      ids.push(id)
      const tagsHere = Math.floor(rand() * 6)
      for (let t = 0; t < tagsHere; t++) link.run(id, tagIds[Math.floor(tagCount * rand() ** 2)]!)
      if (i % 20000 === 19999) log(`uploads ${i + 1}`)
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
    let written = 0
    for (let i = 0; i < uploads; i++) {
      const first = Math.floor(rand() * userCount)
      let up = 0
      for (let k = 0; k < shares[i]!; k++) {
        const isUp = rand() < 0.6
        seeder.vote(users[(first + k) % userCount]!, ids[i]!, isUp ? 'fucks' : 'does_not_fuck')
        if (isUp) up++
      }
      if (shares[i]! > 0) setCounts.run(up, shares[i]! - up, ids[i]!)
      written += shares[i]!
      if (i % 20000 === 19999) log(`votes ${written}`)
    }
  })()
  return { users: userCount, uploads, tags: tagCount, votes: totalVotes }
}
