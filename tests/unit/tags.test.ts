import { describe, expect, it } from 'vitest'
import * as v from 'valibot'
import { AddTagsSchema } from '../../shared/schemas/tags'
import { MAX_TAGS_PER_UPLOAD, parseTagName, slugify } from '../../shared/utils/tags'

describe('tag rule', () => {
  it('trims, keeps case and lowercases the slug with spaces as hyphens', () => {
    expect(parseTagName('  Funny  Cats ')).toEqual({ name: 'Funny  Cats', slug: 'funny-cats' })
    expect(parseTagName('Big-Dogs 2')).toEqual({ name: 'Big-Dogs 2', slug: 'big-dogs-2' })
    expect(slugify('ÄPFEL')).toBe('äpfel')
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
