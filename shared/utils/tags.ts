/** Most tags one upload may carry (service-spec "Limits"). */
export const MAX_TAGS_PER_UPLOAD = 10

/** A tag name: 2 to 50 characters of letters, digits, spaces and hyphens (after trimming). */
export const TAG_NAME_RULE = {
  minLength: 2,
  maxLength: 50,
  pattern: /^[\p{L}\p{N} -]+$/u,
  message: 'Tag names must be 2 to 50 characters of letters, digits, spaces and hyphens',
} as const

/** The trimmed name (case kept), or null when it breaks the tag-name rule. Names are never sanitised. */
export function parseTagName(name: string): string | null {
  const trimmed = name.trim()
  const length = [...trimmed].length
  if (length < TAG_NAME_RULE.minLength || length > TAG_NAME_RULE.maxLength) return null
  return TAG_NAME_RULE.pattern.test(trimmed) ? trimmed : null
}

/** The slug of a (valid) tag name: lowercased, each run of spaces one hyphen. */
export function slugify(name: string): string {
  return name.trim().toLowerCase().replace(/\s+/g, '-')
}
