/** What an account narrows its lists with, as kept for it: hidden tags, blind voting, what its lists do with each content rating. */
import { DEFAULT_RATING_PREFERENCES, type RatingChoice, type RatingPreferences } from '../../../shared/utils/content-rating'
import type { Executor } from '../../database/port'
import { sql } from '../../database/sql'

/** The slugs an account hides, in slug order, each alias as its tag's slug (server/services/tag-rules.ts), once. */
export async function hiddenTagsOf(db: Executor, userId: string): Promise<string[]> {
  const rows = await db.all<{ slug: string }>(sql`SELECT DISTINCT coalesce(t.slug, h.slug) AS slug FROM user_hidden_tags h
    LEFT JOIN tag_aliases a ON a.slug = h.slug LEFT JOIN tags t ON t.id = a.tag_id
    WHERE h.user_id = ${userId} ORDER BY 1`)
  return rows.map(row => row.slug)
}

/** GET /api/profile/filters */
export async function profileFilters(db: Executor, userId: string) {
  const user = await db.get<{ blind_voting: number }>(sql`SELECT blind_voting FROM users WHERE id = ${userId}`)
  return { hiddenTags: await hiddenTagsOf(db, userId), blindVoting: user?.blind_voting === 1 }
}

/**
 * PUT /api/profile/filters: replaces the account's hidden tags (duplicates
 * once) and, when given, its blind-voting setting, in one transaction.
 */
export async function setProfileFilters(db: Executor, userId: string, input: { hiddenTags: string[], blindVoting?: boolean }) {
  const slugs = [...new Set(input.hiddenTags)]
  return db.transaction(async (tx) => {
    // Two PUTs of one account at once: one after the other, the last one wins whole.
    await tx.lock(`hidden-tags:${userId}`)
    await tx.run(sql`DELETE FROM user_hidden_tags WHERE user_id = ${userId}`)
    if (slugs.length > 0) {
      await tx.run(sql`INSERT INTO user_hidden_tags (user_id, slug) VALUES ${sql.join(slugs.map(slug => sql`(${userId}, ${slug})`))}
        ON CONFLICT DO NOTHING`)
    }
    if (input.blindVoting !== undefined) await tx.run(sql`UPDATE users SET blind_voting = ${input.blindVoting ? 1 : 0} WHERE id = ${userId}`)
    return profileFilters(tx, userId)
  })
}

/** What the account's lists do with suggestive and explicit uploads (GET/PUT /api/profile/preferences). */
export async function ratingPreferencesOf(db: Executor, userId: string): Promise<RatingPreferences> {
  const row = await db.get<{ rating_explicit: RatingChoice, rating_suggestive: RatingChoice }>(sql`SELECT rating_explicit, rating_suggestive
    FROM users WHERE id = ${userId}`)
  return row ? { explicit: row.rating_explicit, suggestive: row.rating_suggestive } : { ...DEFAULT_RATING_PREFERENCES }
}
