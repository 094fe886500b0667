import { hasVisibleCharacter, stripBidiControls } from './visible-text'

/** An upload holds at most this many tags (docs/behaviour.md, Uploads and media). */
export const MAX_TAGS_PER_UPLOAD = 10

/** 2 to 50 letters, digits, spaces and hyphens (after trimming); at least one of them visible. */
const TAG_NAME = /^[\p{L}\p{N} -]{2,50}$/u

/** The one message for a name that breaks the rule, wherever it is checked. */
export const TAG_NAME_MESSAGE = 'Tag names must be 2 to 50 characters of letters, digits, spaces and hyphens'

/**
 * A tag's slug: lowercased, runs of spaces become one hyphen. Lowercasing can
 * add a mark a name never has (İ becomes i and a combining dot), which no slug
 * may hold: it is dropped, so `İstanbul` is `istanbul`. Every slug read from
 * an address or a query is made this way too.
 */
export function slugify(name: string): string {
  return name.trim().toLowerCase().replace(/\p{M}/gu, '').replace(/ +/g, '-')
}

/**
 * The tag rule in one place: the trimmed name (case kept) and its slug, or
 * null when the name breaks the rule. Bidirectional controls are dropped first
 * (they would reorder the text around a tag wherever it is shown); anything
 * else that breaks the rule is rejected, never sanitised. A name of invisible
 * letters only (Hangul fillers) is rejected.
 */
export function parseTagName(raw: string): { name: string, slug: string } | null {
  const name = stripBidiControls(raw).trim()
  if (!TAG_NAME.test(name) || !hasVisibleCharacter(name)) return null
  return { name, slug: slugify(name) }
}

/** A slug as tags carry it: the slug of a valid tag name, and that name's own slug. */
export function isTagSlug(value: string): boolean {
  return parseTagName(value)?.slug === value
}
