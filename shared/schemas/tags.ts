import * as v from 'valibot'
import { parseTagName, TAG_NAME_RULE } from '../utils/tags'

/** One tag name per the tag-name rule; the output is the trimmed name, case kept. */
export const TagNameSchema = v.pipe(
  v.string(TAG_NAME_RULE.message),
  v.trim(),
  v.check(name => parseTagName(name) !== null, TAG_NAME_RULE.message),
)

/** The Tag object of every response. */
export const TagSchema = v.object({
  id: v.pipe(v.string(), v.uuid()),
  name: v.string(),
  slug: v.string(),
})
