import * as v from 'valibot'
import { isTagSlug } from '../utils/tags'

/** Most tags one account may hide. */
export const MAX_HIDDEN_TAGS = 100

/** PUT /api/profile/filters (docs/behaviour.md, Voting flow and feeds). */
export const ProfileFiltersSchema = v.object({
  hiddenTags: v.pipe(
    v.array(v.pipe(v.string('Invalid hidden tags'), v.check(isTagSlug, 'Invalid hidden tags')), 'Invalid hidden tags'),
    v.maxLength(MAX_HIDDEN_TAGS, `At most ${MAX_HIDDEN_TAGS} hidden tags`),
    v.description('Tag slugs; uploads carrying any of them are left out of every list for this account (feeds excepted)'),
  ),
  blindVoting: v.optional(v.pipe(
    v.boolean('Invalid blind voting'),
    v.description('Keep a card\'s counts and rating hidden until this account has voted on it; left as it is when absent'),
  )),
}, 'Invalid hidden tags')

export const ProfileFiltersResponseSchema = v.object({
  hiddenTags: v.array(v.string()),
  blindVoting: v.boolean(),
})
