import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { AddTagsSchema, TagNameSchema } from '../../shared/schemas/tags'
import { TagListFieldSchema } from '../../shared/schemas/uploads'
import { isTagSlug, MAX_TAGS_PER_UPLOAD, parseTagName, slugify } from '../../shared/utils/tags'
import { parseSearchQuery } from '../../shared/utils/search-query'
import { uploadStats } from '../../shared/utils/rating'
import { sql } from '../../server/database/sql'
import { addUploadTags } from '../../server/services/upload-edits'
import { tagLists, tagsOf } from '../../server/services/upload-tags'
import { testDatabase } from '../support/database'

describe('tag-name rule', () => {
  it.each([
    ['ab', 'ab'],
    ['  Cute Cats  ', 'Cute Cats'],
    ['Eighties-Pop 80', 'Eighties-Pop 80'],
    ['Ünïcödé', 'Ünïcödé'],
    ['x'.repeat(50), 'x'.repeat(50)],
  ])('accepts %j as %j', (input, output) => {
    expect(parseTagName(input)?.name).toBe(output)
    expect(v.parse(TagNameSchema, input)).toBe(output)
  })

  it.each(['a', ' a ', 'x'.repeat(51), 'no_underscores', '<script>', 'semi;colon', 'emoji 😀', ''])('refuses %j', (input) => {
    expect(parseTagName(input)).toBeNull()
    expect(v.safeParse(TagNameSchema, input).success).toBe(false)
  })

  it('slugifies: lowercased, spaces to hyphens', () => {
    expect(slugify('Cute  Cats')).toBe('cute-cats')
    expect(slugify(' Eighties-Pop ')).toBe('eighties-pop')
  })

  it('parses a comma-separated list: trimmed, empties dropped, first spelling per slug, at most 10', () => {
    expect(v.parse(TagListFieldSchema, ' One, two ,,ONE, Two Words ')).toEqual(['One', 'two', 'Two Words'])
    expect(v.parse(TagListFieldSchema, undefined)).toEqual([])
    const ten = Array.from({ length: MAX_TAGS_PER_UPLOAD }, (_, i) => `tag${i}`)
    expect(v.parse(TagListFieldSchema, ten.join(','))).toEqual(ten)
    expect(v.safeParse(TagListFieldSchema, [...ten, 'tag10'].join(',')).success).toBe(false)
  })
})

describe('uploadStats', () => {
  it('weights upvotes 10 and downvotes 1, rounded to 2 decimals; null without votes', () => {
    expect(uploadStats(0, 0)).toEqual({ voteCount: 0, upvotes: 0, downvotes: 0, averageRating: null })
    expect(uploadStats(1, 0).averageRating).toBe(10)
    expect(uploadStats(0, 3).averageRating).toBe(1)
    expect(uploadStats(2, 1)).toEqual({ voteCount: 3, upvotes: 2, downvotes: 1, averageRating: 7 })
    expect(uploadStats(1, 2).averageRating).toBe(4)
    expect(uploadStats(2, 5).averageRating).toBe(3.57)
  })
})

describe('addUploadTags', () => {
  it('creates one tag row per slug, shared by uploads, and skips tags already linked', async () => {
    const db = await testDatabase()
    await db.run(sql`INSERT INTO users (id, username) VALUES ('u1', 'one')`)
    for (const id of ['a', 'b']) {
      await db.run(sql`INSERT INTO uploads (id, user_id, original_name, description, upload_type) VALUES (${id}, 'u1', 'x', 'd', 'link')`)
    }
    const owner = { id: 'u1', username: 'one', email: null, isAdmin: false, shadowBanned: false }
    const added = async (id: string, names: string[]) => (await addUploadTags(db, owner, id, names)).added
    expect(await added('a', ['Cats', 'Dogs'])).toBe(2)
    expect(await added('b', ['cats'])).toBe(1)
    expect(await added('a', ['CATS', 'Birds'])).toBe(1)
    expect(await db.get(sql`SELECT count(*) AS n FROM tags`)).toEqual({ n: 3 })
    expect((await tagsOf(db, 'a')).map(t => [t.name, t.slug])).toEqual([['Cats', 'cats'], ['Dogs', 'dogs'], ['Birds', 'birds']])
    expect((await tagsOf(db, 'b'))[0]).toEqual((await tagsOf(db, 'a'))[0])
  })
})

describe('tagLists', () => {
  it('gives each tag_ids value its tags in order, kept by the value: a kept list is read with no query', async () => {
    const db = await testDatabase()
    for (const [id, name] of [['t1', 'Cats'], ['t2', 'Dogs'], ['t3', 'Birds']]) {
      await db.run(sql`INSERT INTO tags (id, name, slug) VALUES (${id}, ${name}, ${name!.toLowerCase()})`)
    }
    const names = (lists: (readonly { name: string }[])[]) => lists.map(list => list.map(tag => tag.name))
    const first = await tagLists(db, ['t3,t1', '', 't2,t3,t1', 't3,t1'])
    expect(names(first)).toEqual([['Birds', 'Cats'], [], ['Dogs', 'Birds', 'Cats'], ['Birds', 'Cats']])
    expect(Object.isFrozen(first[0])).toBe(true)
    // Kept: the same values again (a new string of one of them) are answered from memory, with no statement.
    const statements: unknown[] = []
    const counting = Object.create(db, { all: { value: (query: unknown) => (statements.push(query), db.all(query as never)) } })
    const again = await tagLists(counting, [['t2', 't3', 't1'].join(','), 't3,t1'])
    expect(statements).toEqual([])
    expect(again[0]).toBe(first[2])
    // A value not kept yet reads only its tags not kept either.
    expect(names(await tagLists(counting, ['t1,t2']))).toEqual([['Cats', 'Dogs']])
    expect(statements).toEqual([])
    // A list missing a tag row is not kept: it is looked up again.
    await tagLists(counting, ['t1,gone'])
    await tagLists(counting, ['t1,gone'])
    expect(statements).toHaveLength(2)
  })
})

describe('tag rule, slugs and the request schema', () => {
  it('trims, keeps case and lowercases the slug with spaces as hyphens', () => {
    expect(parseTagName('  Funny  Cats ')).toEqual({ name: 'Funny  Cats', slug: 'funny-cats' })
    expect(parseTagName('Big-Dogs 2')).toEqual({ name: 'Big-Dogs 2', slug: 'big-dogs-2' })
    expect(slugify('ÄPFEL')).toBe('äpfel')
  })

  it('gives a name with İ a slug its own rule accepts, wherever the slug is read', () => {
    // Lowercased, İ is i and a combining dot: a mark no slug may hold.
    expect(parseTagName('İstanbul')).toEqual({ name: 'İstanbul', slug: 'istanbul' })
    expect(isTagSlug('istanbul')).toBe(true)
    expect(slugify('İ'.repeat(50))).toBe('i'.repeat(50))
    expect(parseSearchQuery('İstanbul -Kebap')).toEqual({ kind: 'and', children: [{ kind: 'tag', slug: 'istanbul' }, { kind: 'not', child: { kind: 'tag', slug: 'kebap' } }] })
  })

  it('accepts 2 to 50 letters, digits, spaces and hyphens, and nothing else', () => {
    expect(parseTagName('ab')).not.toBeNull()
    expect(parseTagName('a'.repeat(50))).not.toBeNull()
    for (const bad of ['a', ' a ', 'a'.repeat(51), 'a_b', 'a.b', '<b>', 'tab\there', 'emoji 🎉', 'new\nline']) {
      expect(parseTagName(bad)).toBeNull()
    }
  })

  it('caps an upload at 10 tags and the request schema asks for a non-empty array', () => {
    expect(MAX_TAGS_PER_UPLOAD).toBe(10)
    expect(v.safeParse(AddTagsSchema, { tags: [] }).issues?.[0]?.message).toBe('Tags must be a non-empty array')
    expect(v.safeParse(AddTagsSchema, { tags: [' ok '] }).output).toEqual({ tags: ['ok'] })
  })
})
