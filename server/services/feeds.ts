import type { Database, Executor } from '../database/port'
import { sql, type Query } from '../database/sql'
import type { ContentRating } from '../../shared/utils/content-rating'
import { isTagSlug, slugify } from '../../shared/utils/tags'
import type { SearchNode } from '../../shared/utils/search-query'
import { cachedList } from './list-cache'
import { matchingCondition, oneWord, tagSlugsOf, withAliasesResolved } from './search'
import { withinBudget, type BudgetOf } from './search-budget'
import { aliasSlugsIn } from './tag-rules'
import { ENTRY_COLUMNS, filtering, taggedIds, walkedWord, withTags, type ListEntry, type ListRow } from './lists'

/** Entries per feed. */
export const FEED_SIZE = 50

export type FeedSource = { kind: 'recent' } | { kind: 'top' } | { kind: 'tag', slug: string } | { kind: 'user', username: string }
  | { kind: 'favourites', username: string }
  /** The comments of a public upload. */
  | { kind: 'comments', uploadId: string }
  /** `q` as given (for the links), `node` as parsed (null: blank, every public upload), refused past `budgetMs` (search-budget.ts). */
  | { kind: 'search', q: string, node: SearchNode | null, budgetMs: number }
export type FeedFormat = 'atom' | 'json'

const PRODUCT = 'Does It Fuck?'
/** `updated` of a feed with no entries and nothing else to date it. */
const NEVER = '1970-01-01T00:00:00.000Z'

interface Feed {
  title: string
  /** Path of the page the feed mirrors. */
  pagePath: string
  /** Path of the feed without its extension. */
  feedPath: string
  /** Query string of the feed's own address (after the extension), or empty. */
  feedQuery?: string
  /** `updated` while the feed has no entries. */
  since: string
  /** The newest change to the list that edits none of its entries (a favourite added), if the feed is ordered by one. */
  changed?: string
  entries: ListEntry[]
}

const NEWEST = sql`u.created_at DESC, u.id DESC`
const TOP = sql`u.upvotes DESC, u.downvote_count DESC, u.created_at DESC, u.id DESC`

/** The content ratings a feed shows (`rating=`); null: every rating. */
export type FeedRatings = readonly ContentRating[] | null

/** A search feed's query as a condition on `uploads u`, its aliases resolved. */
async function feedCondition(db: Executor, node: SearchNode, budgetOf: BudgetOf): Promise<Query> {
  const word = oneWord(node)
  const walked = word === undefined ? null : await walkedWord(db, word, FEED_SIZE)
  return walked ?? matchingCondition(db, withAliasesResolved(node, await aliasSlugsIn(db, tagSlugsOf(node))), null, budgetOf)
}

/** The feed's content, or null for an unknown tag or user. */
async function loadFeed(db: Executor, source: FeedSource, ratings: FeedRatings): Promise<Feed | null> {
  const rated = (upload?: Query) => filtering({ ratings, hiddenTags: [] }, upload)
  const entries = async (where: Query, order: Query, on = db): Promise<ListEntry[]> => withTags(on, await on.all<ListRow>(sql`SELECT ${ENTRY_COLUMNS}, us.username
    FROM uploads u JOIN users us ON us.id = u.user_id
    WHERE u.is_private = 0 AND ${where}${rated()} ORDER BY ${order} LIMIT ${FEED_SIZE}`))
  const searchEntries = (node: SearchNode, budgetMs: number) => withinBudget(db, budgetMs, async (executor, budget, budgetOf) =>
    entries(sql`${budget}${await feedCondition(executor, node, budgetOf)}`, NEWEST, executor))
  switch (source.kind) {
    case 'recent':
      return { title: `${PRODUCT}: newest uploads`, pagePath: '/', feedPath: '/feeds/recent', since: NEVER, entries: await entries(sql`1 = 1`, NEWEST) }
    case 'top':
      return { title: `${PRODUCT}: top-voted uploads`, pagePath: '/?sort=top', feedPath: '/feeds/top', since: NEVER, entries: await entries(sql`1 = 1`, TOP) }
    case 'tag': {
      // Only a slug the tag rule could make is looked up: anything else (a NUL, odd bytes) is no tag, on either engine.
      const slug = slugify(source.slug)
      if (!isTagSlug(slug)) return null
      // An alias's feed is its tag's (server/services/tag-rules.ts).
      const tag = await db.get<{ id: string, name: string, slug: string, created_at: string }>(sql`SELECT id, name, slug, created_at FROM tags
        WHERE slug = ${(await aliasSlugsIn(db, [slug])).get(slug) ?? slug}`)
      if (!tag) return null
      // The tag's newest public links, read in order from its two ranges (taggedIds): walking
      // the newest uploads for the tag's took a rare tag's feed 196 ms on SQLite at 100,000
      // uploads (0.17 ms so).
      const found = await entries(sql`u.id IN (${taggedIds(tag.id, 'new', { page: 1, limit: FEED_SIZE }, rated(sql`ut.upload_id`))})`, NEWEST)
      // A tag on private uploads only is not shown: its feed would tell its name, case and age.
      if (found.length === 0) return null
      return {
        title: `${PRODUCT}: uploads tagged ${tag.name}`,
        pagePath: `/tags/${encodeURIComponent(tag.slug)}`,
        feedPath: `/feeds/tag/${encodeURIComponent(tag.slug)}`,
        since: tag.created_at,
        entries: found,
      }
    }
    case 'search': {
      const query = `?q=${encodeURIComponent(source.q)}`
      return {
        title: `${PRODUCT}: search ${source.q}`,
        pagePath: `/search${query}`,
        feedPath: '/feeds/search',
        feedQuery: query,
        since: NEVER,
        // Feeds are read without a session: `is:` is refused before this (the feeds route).
        // The newest uploads are weighed one by one until 50 match, within the budget; a
        // common word is asked of each upload as it is walked (lists/words.ts).
        entries: source.node
          ? await searchEntries(source.node, source.budgetMs)
          : await entries(sql`1 = 1`, NEWEST),
      }
    }
    case 'user': {
      if (!/^[\w-]{1,100}$/.test(source.username)) return null
      const user = await db.get<{ id: string, username: string, created_at: string }>(sql`SELECT id, username, created_at FROM users
        WHERE lower(username) = lower(${source.username})`)
      if (!user) return null
      return {
        title: `${PRODUCT}: uploads by ${user.username}`,
        pagePath: `/user/${encodeURIComponent(user.username)}`,
        feedPath: `/feeds/user/${encodeURIComponent(user.username)}`,
        since: user.created_at,
        entries: await entries(sql`u.user_id = ${user.id}`, NEWEST),
      }
    }
    case 'comments':
      return null // renderFeed renders it (loadCommentFeed): its entries are comments, not uploads
    case 'favourites': {
      // As GET /api/user/{username}/favourites: public uploads only, none while the user keeps the list private.
      if (!/^[\w-]{1,100}$/.test(source.username)) return null
      const user = await db.get<{ id: string, username: string, created_at: string }>(sql`SELECT id, username, created_at FROM users
        WHERE lower(username) = lower(${source.username}) AND public_favourites = 1`)
      if (!user) return null
      const rows = await db.all<ListRow & { favourited_at: string }>(sql`SELECT ${ENTRY_COLUMNS}, us.username, f.created_at AS favourited_at
        FROM favourites f JOIN uploads u ON u.id = f.upload_id JOIN users us ON us.id = u.user_id
        WHERE f.user_id = ${user.id} AND u.is_private = 0${rated()} ORDER BY f.created_at DESC, f.upload_id DESC LIMIT ${FEED_SIZE}`)
      return {
        title: `${PRODUCT}: favourites of ${user.username}`,
        pagePath: `/user/${encodeURIComponent(user.username)}?tab=favourites`,
        feedPath: `/feeds/user/${encodeURIComponent(user.username)}/favourites`,
        since: user.created_at,
        // An old upload favourited today heads the feed: today is when the feed changed.
        changed: rows[0]?.favourited_at,
        entries: await withTags(db, rows),
      }
    }
  }
}

/**
 * The shape of an upload id (a UUID, or word characters as the user feeds' names): anything
 * else, a NUL byte that PostgreSQL would refuse among them, is not found without asking the
 * database or taking a cache entry.
 */
const UPLOAD_ID = /^[\w-]{1,100}$/

interface CommentFeedRow { id: string, username: string | null, html: string, body: string, created_at: string, edited_at: string | null }
interface CommentFeed { title: string, pagePath: string, feedPath: string, since: string, comments: CommentFeedRow[] }

/**
 * The newest comments (replies too) of a public upload that anyone may see:
 * not deleted, author not shadow-banned (feeds are read without a session).
 * Null for an unknown or private upload.
 */
async function loadCommentFeed(db: Executor, uploadId: string): Promise<CommentFeed | null> {
  const upload = await db.get<{ id: string, description: string, created_at: string }>(sql`SELECT id, description, created_at FROM uploads
    WHERE id = ${uploadId} AND is_private = 0`)
  if (!upload) return null
  const comments = await db.all<CommentFeedRow>(sql`SELECT c.id, us.username, c.html, c.body, c.created_at, c.edited_at
    FROM comments c LEFT JOIN users us ON us.id = c.author_id
    WHERE c.upload_id = ${upload.id} AND c.deleted = 0 AND (us.id IS NULL OR us.shadow_banned = 0)
    ORDER BY c.created_at DESC, c.id DESC LIMIT ${FEED_SIZE}`)
  return {
    title: `${PRODUCT}: comments on ${upload.description}`,
    pagePath: `/upload/${upload.id}`,
    feedPath: `/feeds/upload/${upload.id}/comments`,
    since: upload.created_at,
    comments,
  }
}

/** Characters XML 1.0 cannot carry at all (C0 controls but tab, LF, CR; U+FFFE/FFFF; lone surrogates). */
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g
const xml = (text: string) => text.replace(NOT_XML, '').replace(/[<>&'"]/g, c => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '\'': '&apos;', '"': '&quot;' })[c]!)

/** An entry's `updated`: its last edit, or its creation (docs/behaviour.md, Curation). */
const entryUpdated = (entry: ListEntry) => entry.edited_at ?? entry.created_at
/** The newest entry's time or list change; the tag's or user's creation (or 1970) for an empty feed. */
const updatedOf = (feed: Feed) => feed.entries.reduce<string | null>((latest, entry) => latest === null || entryUpdated(entry) > latest ? entryUpdated(entry) : latest, feed.changed ?? null) ?? feed.since
/** An image's thumbnail, never an explicit one's (docs/behaviour.md, Curation): a reader would show it unasked. */
const thumbnailOf = (site: string, entry: ListEntry) => entry.upload_type === 'image' && entry.rating !== 'explicit' ? `${site}/api/image/${entry.id}?size=thumb` : null
/** The category naming an entry's content rating, apart from its tags by its scheme. */
const RATING_SCHEME = '/ratings'

/** Atom (RFC 4287): feed id, title, updated, author per entry, entry id, title, updated; categories and a Media RSS thumbnail. */
function renderAtom(feed: Feed, site: string): string {
  const lines = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/">',
    `  <id>${xml(`${site}${feed.feedPath}.atom${feed.feedQuery ?? ''}`)}</id>`,
    `  <title>${xml(feed.title)}</title>`,
    `  <updated>${updatedOf(feed)}</updated>`,
    `  <link rel="self" type="application/atom+xml" href="${xml(`${site}${feed.feedPath}.atom${feed.feedQuery ?? ''}`)}"/>`,
    `  <link rel="alternate" type="text/html" href="${xml(`${site}${feed.pagePath}`)}"/>`,
    `  <generator>${PRODUCT}</generator>`,
  ]
  for (const entry of feed.entries) {
    const link = `${site}/upload/${entry.id}`
    const thumbnail = thumbnailOf(site, entry)
    lines.push(
      '  <entry>',
      `    <id>urn:uuid:${entry.id}</id>`,
      `    <title>${xml(entry.description)}</title>`,
      `    <link rel="alternate" type="text/html" href="${xml(link)}"/>`,
      `    <author><name>${xml(entry.username ?? '')}</name><uri>${xml(`${site}/user/${encodeURIComponent(entry.username ?? '')}`)}</uri></author>`,
      `    <published>${entry.created_at}</published>`,
      `    <updated>${entryUpdated(entry)}</updated>`,
      ...entry.tags.map(tag => `    <category term="${xml(tag.slug)}" label="${xml(tag.name)}"/>`),
      `    <category term="${entry.rating}" scheme="${xml(`${site}${RATING_SCHEME}`)}" label="Rating: ${entry.rating}"/>`,
      ...(thumbnail ? [`    <media:thumbnail url="${xml(thumbnail)}"/>`] : []),
      `    <summary>${xml(tally(entry))}</summary>`,
      '  </entry>',
    )
  }
  lines.push('</feed>', '')
  return lines.join('\n')
}

/** An entry's votes in the words the site's cards use: "1 fuck, 0 against". */
const tally = (entry: ListEntry) => `${entry.stats.upvotes} ${entry.stats.upvotes === 1 ? 'fuck' : 'fucks'}, ${entry.stats.downvotes} against`

/** JSON Feed 1.1 (https://www.jsonfeed.org/version/1.1/). */
function renderJson(feed: Feed, site: string): string {
  return JSON.stringify({
    version: 'https://jsonfeed.org/version/1.1',
    title: feed.title,
    home_page_url: `${site}${feed.pagePath}`,
    feed_url: `${site}${feed.feedPath}.json${feed.feedQuery ?? ''}`,
    items: feed.entries.map((entry) => {
      const thumbnail = thumbnailOf(site, entry)
      return {
        id: entry.id,
        url: `${site}/upload/${entry.id}`,
        title: entry.description,
        content_text: `${entry.description}\n\n${tally(entry)}`,
        ...(thumbnail ? { image: thumbnail } : {}),
        ...(entry.external_url ? { external_url: entry.external_url } : {}),
        date_published: entry.created_at,
        date_modified: entryUpdated(entry),
        authors: [{ name: entry.username ?? '', url: `${site}/user/${encodeURIComponent(entry.username ?? '')}` }],
        // JSON Feed has tags only: the rating is one, named apart from any tag (a tag name has no colon).
        tags: [...entry.tags.map(tag => tag.name), `rating:${entry.rating}`],
      }
    }),
  })
}

const commentUpdated = (row: CommentFeedRow) => row.edited_at ?? row.created_at
const commentAuthor = (row: CommentFeedRow) => row.username ?? 'a deleted account'

/** Atom of an upload's comments: each comment's sanitised HTML as its content. */
function renderCommentAtom(feed: CommentFeed, site: string): string {
  const updated = feed.comments.reduce<string | null>((latest, row) => latest === null || commentUpdated(row) > latest ? commentUpdated(row) : latest, null) ?? feed.since
  const lines = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <id>${xml(`${site}${feed.feedPath}.atom`)}</id>`,
    `  <title>${xml(feed.title)}</title>`,
    `  <updated>${updated}</updated>`,
    `  <link rel="self" type="application/atom+xml" href="${xml(`${site}${feed.feedPath}.atom`)}"/>`,
    `  <link rel="alternate" type="text/html" href="${xml(`${site}${feed.pagePath}`)}"/>`,
    `  <generator>${PRODUCT}</generator>`,
  ]
  for (const row of feed.comments) {
    lines.push(
      '  <entry>',
      `    <id>urn:uuid:${row.id}</id>`,
      `    <title>${xml(`Comment by ${commentAuthor(row)}`)}</title>`,
      `    <link rel="alternate" type="text/html" href="${xml(`${site}${feed.pagePath}#comment-${row.id}`)}"/>`,
      `    <author><name>${xml(commentAuthor(row))}</name></author>`,
      `    <published>${row.created_at}</published>`,
      `    <updated>${commentUpdated(row)}</updated>`,
      `    <content type="html">${xml(row.html)}</content>`,
      '  </entry>',
    )
  }
  lines.push('</feed>', '')
  return lines.join('\n')
}

/** JSON Feed 1.1 of an upload's comments. */
function renderCommentJson(feed: CommentFeed, site: string): string {
  return JSON.stringify({
    version: 'https://jsonfeed.org/version/1.1',
    title: feed.title,
    home_page_url: `${site}${feed.pagePath}`,
    feed_url: `${site}${feed.feedPath}.json`,
    items: feed.comments.map(row => ({
      id: row.id,
      url: `${site}${feed.pagePath}#comment-${row.id}`,
      title: `Comment by ${commentAuthor(row)}`,
      content_html: row.html,
      date_published: row.created_at,
      date_modified: commentUpdated(row),
      authors: [{ name: commentAuthor(row) }],
    })),
  })
}

/**
 * /feeds/…: the feed's text in the format, or null for an unknown tag or
 * user. Cached like the lists, until the database changes.
 */
export function renderFeed(db: Database, source: FeedSource, format: FeedFormat, site: string, ratings: FeedRatings = null): Promise<string | null> {
  if (source.kind === 'comments') {
    if (!UPLOAD_ID.test(source.uploadId)) return Promise.resolve(null)
    return cachedList(db, `feed ${format} comments ${source.uploadId} ${site}`, async () => {
      const feed = await loadCommentFeed(db, source.uploadId)
      if (!feed) return null
      return format === 'atom' ? renderCommentAtom(feed, site) : renderCommentJson(feed, site)
    })
  }
  const key = `feed ${format} ${ratings?.join(',') ?? '*'} ${source.kind} ${'slug' in source ? slugify(source.slug) : ''} ${'username' in source ? source.username.toLowerCase() : ''} ${site}${
    source.kind === 'search' ? ` ${JSON.stringify(source.q)} ${JSON.stringify(source.node)}` : ''}`
  return cachedList(db, key, async () => {
    const feed = await loadFeed(db, source, ratings)
    if (!feed) return null
    // A feed narrowed by rating is a feed of its own: its id and self link say so.
    if (ratings) feed.feedQuery = `${feed.feedQuery ? `${feed.feedQuery}&` : '?'}rating=${ratings.join(',')}`
    return format === 'atom' ? renderAtom(feed, site) : renderJson(feed, site)
  })
}
