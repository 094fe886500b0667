import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { TagNameSchema } from '../../shared/schemas/tags'
import { TagListFieldSchema } from '../../shared/schemas/uploads'
import { MAX_TAGS_PER_UPLOAD, parseTagName, slugify } from '../../shared/utils/tags'
import { uploadStats } from '../../shared/utils/rating'
import { attachTags, tagsOfUpload } from '../../server/services/tags'
import { testDatabase } from '../support/database'

describe('tag-name rule', () => {
  it.each([
    ['ab', 'ab'],
    ['  Cute Cats  ', 'Cute Cats'],
    ['Eighties-Pop 80', 'Eighties-Pop 80'],
    ['Ünïcödé', 'Ünïcödé'],
    ['x'.repeat(50), 'x'.repeat(50)],
  ])('accepts %j as %j', (input, output) => {
    expect(parseTagName(input)).toBe(output)
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

describe('attachTags', () => {
  it('creates one tag row per slug, shared by uploads, and skips tags already linked', () => {
    const { sqlite } = testDatabase()
    sqlite.prepare(`INSERT INTO users (id, username) VALUES ('u1', 'one')`).run()
    for (const id of ['a', 'b']) {
      sqlite.prepare(`INSERT INTO uploads (id, user_id, original_name, description, upload_type) VALUES (?, 'u1', 'x', 'd', 'link')`).run(id)
    }
    expect(attachTags(sqlite, 'a', ['Cats', 'Dogs'])).toBe(2)
    expect(attachTags(sqlite, 'b', ['cats'])).toBe(1)
    expect(attachTags(sqlite, 'a', ['CATS', 'Birds'])).toBe(1)
    expect(sqlite.prepare('SELECT count(*) FROM tags').pluck().get()).toBe(3)
    expect(tagsOfUpload(sqlite, 'a').map(t => [t.name, t.slug])).toEqual([['Cats', 'cats'], ['Dogs', 'dogs'], ['Birds', 'birds']])
    expect(tagsOfUpload(sqlite, 'b')[0]).toEqual(tagsOfUpload(sqlite, 'a')[0])
  })
})
