import * as v from 'valibot'

/**
 * The message of a missing (or non-object) body names the field that is
 * missing, in docs/behaviour.md's words (Votes and rating), instead of
 * valibot's generic "Invalid key".
 */
function missingKey(messages: Record<string, string>, fallback: string) {
  return (issue: v.BaseIssue<unknown>) => {
    const key = issue.path?.[0]?.key
    return (typeof key === 'string' && messages[key]) || fallback
  }
}

const UUID = /^[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}$/i

const UploadIdSchema = v.pipe(v.string('Invalid upload ID'), v.uuid('Invalid upload ID'))

/** POST /api/vote */
export const VoteSchema = v.object({
  uploadId: UploadIdSchema,
  vote: v.picklist(['fucks', 'does_not_fuck'], 'Invalid vote value'),
}, missingKey({ vote: 'Invalid vote value' }, 'Invalid upload ID'))

/** GET and DELETE /api/vote?uploadId= */
export const VoteQuerySchema = v.object({
  uploadId: v.pipe(v.string('Upload ID required'), v.nonEmpty('Upload ID required'), v.uuid('Invalid upload ID')),
}, 'Upload ID required')

/** The most uploads GET /api/vote/mine answers for at once (a page of the longest list). */
export const MY_VOTES_MAX = 100

/**
 * GET /api/vote/mine?uploadIds=: comma-separated upload ids, 1 to MY_VOTES_MAX of them.
 * One value: repeated (`uploadIds=a&uploadIds=b`) it is 400 `Invalid upload IDs`, as a
 * repeated `page` or `sort` is refused with its own words, not `Upload IDs required`.
 */
export const MyVotesQuerySchema = v.object({
  uploadIds: v.pipe(
    v.string(issue => issue.received === 'undefined' ? 'Upload IDs required' : 'Invalid upload IDs'),
    v.nonEmpty('Upload IDs required'),
    v.maxLength(MY_VOTES_MAX * 37, 'Too many upload IDs'),
    v.description(`Comma-separated upload ids, at most ${MY_VOTES_MAX}`),
    v.transform(value => [...new Set(value.split(','))]),
    v.check(ids => ids.length <= MY_VOTES_MAX, 'Too many upload IDs'),
    v.check(ids => ids.every(id => UUID.test(id)), 'Invalid upload ID'),
  ),
}, 'Upload IDs required')

/** POST /api/vote/anonymous */
export const AnonymousVoteSchema = v.object({
  uploadId: UploadIdSchema,
  vote: v.picklist(['upvote', 'downvote'], 'Invalid vote value'),
  clientFingerprint: v.pipe(
    v.string('Invalid client fingerprint'),
    v.minLength(8, 'Invalid client fingerprint'),
    v.maxLength(256, 'Invalid client fingerprint'),
  ),
}, missingKey({ vote: 'Invalid vote value', clientFingerprint: 'Invalid client fingerprint' }, 'Invalid upload ID'))

export const VoteRecordSchema = v.object({
  voteId: v.pipe(v.string(), v.uuid()),
  userId: v.pipe(v.string(), v.uuid()),
  uploadId: v.pipe(v.string(), v.uuid()),
  vote: v.picklist(['fucks', 'does_not_fuck']),
})

export const VoteResponseSchema = v.object({ vote: VoteRecordSchema })
export const VoteStatusResponseSchema = v.object({ vote: v.nullable(v.picklist(['fucks', 'does_not_fuck'])) })
export const MyVotesResponseSchema = v.object({
  votes: v.pipe(
    v.record(v.string(), v.picklist(['fucks', 'does_not_fuck'])),
    v.description('The caller\'s vote per upload id asked about; ids not voted on are left out'),
  ),
})
export const VoteDeleteResponseSchema = v.object({ success: v.literal(true), vote: v.null() })

export const AnonymousVoteResponseSchema = v.object({
  success: v.literal(true),
  alreadyVoted: v.literal(false),
  vote: v.picklist(['upvote', 'downvote']),
})

export const AnonymousVoteConflictSchema = v.object({
  statusCode: v.literal(409),
  statusMessage: v.string(),
  message: v.string(),
  success: v.literal(false),
  alreadyVoted: v.literal(true),
  existingVote: v.picklist(['upvote', 'downvote']),
})
