import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { AddTagsSchema, TagNameSchema } from '../../shared/schemas/tags'
import { TagListFieldSchema, UploadFieldsSchema } from '../../shared/schemas/uploads'
import { parseTagName, TAG_NAME_MESSAGE } from '../../shared/utils/tags'
import { hasVisibleCharacter, stripBidiControls } from '../../shared/utils/visible-text'

const HANGUL_FILLER = '\u3164'
const ZERO_WIDTH_SPACE = '\u200B'
const BIDI = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069', '\u200E', '\u200F', '\u061C']

describe('visible characters', () => {
  it.each([
    ['a', true], ['ж', true], ['猫', true], ['😀', true], ['.', true], ['e\u0301', true], ['\u200Ba\u200B', true],
    ['', false], [' \t\n', false], [ZERO_WIDTH_SPACE.repeat(3), false], [HANGUL_FILLER.repeat(2), false], ['\u115F\u1160\uFFA0', false],
    ['\u2800', false], ['\u00AD\u2060\uFEFF', false], ['\u0301\u0302', false], ['\uFE0F', false], [BIDI.join(''), false], ['\u3000', false],
  ])('%j has a visible character: %s', (text, visible) => {
    expect(hasVisibleCharacter(text)).toBe(visible)
  })

  it('strips every bidi control and nothing else', () => {
    expect(stripBidiControls(`a${BIDI.join('b')}c`)).toBe(`a${'b'.repeat(BIDI.length - 1)}c`)
    expect(stripBidiControls(`x${ZERO_WIDTH_SPACE}y`)).toBe(`x${ZERO_WIDTH_SPACE}y`)
  })
})

describe('tag rule: visible, bidi controls dropped', () => {
  it.each([HANGUL_FILLER.repeat(2), HANGUL_FILLER.repeat(50), `${HANGUL_FILLER} ${HANGUL_FILLER}`, `\u202E${HANGUL_FILLER.repeat(3)}`, '\u202Ea\u202C'])('refuses %j', (name) => {
    expect(parseTagName(name)).toBeNull()
    expect(v.safeParse(TagNameSchema, name).issues?.[0]?.message).toBe(TAG_NAME_MESSAGE)
    expect(v.safeParse(TagListFieldSchema, `ok, ${name}`).issues?.[0]?.message).toBe(TAG_NAME_MESSAGE)
    expect(v.safeParse(AddTagsSchema, { tags: [name] }).issues?.[0]?.message).toBe(TAG_NAME_MESSAGE)
  })

  it('stores a name without its bidi controls', () => {
    for (const control of BIDI) {
      expect(parseTagName(`${control}Cute Cats${control}`)).toEqual({ name: 'Cute Cats', slug: 'cute-cats' })
    }
    expect(parseTagName('ab\u202Ecd')).toEqual({ name: 'abcd', slug: 'abcd' })
    expect(v.parse(TagNameSchema, ' \u2067Cats\u2069 ')).toBe('Cats')
    expect(v.parse(AddTagsSchema, { tags: ['\u2066Dogs\u2069'] })).toEqual({ tags: ['Dogs'] })
  })

  it('de-duplicates a list by the stored name, so a bidi-wrapped copy is the same tag', () => {
    expect(v.parse(TagListFieldSchema, 'Cats, \u202ECats\u202C, \u2066dogs\u2069')).toEqual(['Cats', 'dogs'])
  })
})

describe('upload description: at least one visible character', () => {
  const link = (description: string) => ({ upload_type: 'link', external_url: 'https://example.com/', description })

  it.each([ZERO_WIDTH_SPACE, ZERO_WIDTH_SPACE.repeat(40), HANGUL_FILLER, '\u2800\u2800', BIDI.join(''), `\u200E${ZERO_WIDTH_SPACE}\u200F`])('refuses %j', (description) => {
    const issues = v.safeParse(UploadFieldsSchema, link(description)).issues
    expect(issues?.map(issue => issue.message)).toEqual(['Description must contain a visible character'])
  })

  it('keeps "Description is required" for an empty or blank one, and accepts visible text with invisible parts', () => {
    expect(v.safeParse(UploadFieldsSchema, link('   ')).issues?.[0]?.message).toBe('Description is required')
    expect(v.parse(UploadFieldsSchema, link(`${ZERO_WIDTH_SPACE}hi${ZERO_WIDTH_SPACE}`)).description).toBe(`${ZERO_WIDTH_SPACE}hi${ZERO_WIDTH_SPACE}`)
  })
})
