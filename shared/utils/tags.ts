/** An upload holds at most this many tags (service-spec "Limits"). */
export const MAX_TAGS_PER_UPLOAD = 10

/** 2 to 50 letters, digits, spaces and hyphens (after trimming). */
const TAG_NAME = /^[\p{L}\p{N} -]{2,50}$/u

/** The one message for a name that breaks the rule, wherever it is checked. */
export const TAG_NAME_MESSAGE = 'Tag names must be 2 to 50 characters of letters, digits, spaces and hyphens'

/** A tag's slug: lowercased, runs of spaces become one hyphen. */
export function slugify(name: string): string {
  return name.trim().toLowerCase().replace(/ +/g, '-')
}

/**
 * The tag rule in one place: the trimmed name (case kept) and its slug, or
 * null when the name breaks the rule (names are rejected, never sanitised).
 */
export function parseTagName(raw: string): { name: string, slug: string } | null {
  const name = raw.trim()
  if (!TAG_NAME.test(name)) return null
  return { name, slug: slugify(name) }
}
