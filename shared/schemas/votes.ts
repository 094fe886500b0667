import * as v from 'valibot'

const UploadIdSchema = v.pipe(v.string('Invalid upload ID'), v.uuid('Invalid upload ID'))

/** POST /api/vote */
export const VoteSchema = v.object({
  uploadId: UploadIdSchema,
  vote: v.picklist(['fucks', 'does_not_fuck'], 'Invalid vote value'),
})

/** GET and DELETE /api/vote?uploadId= */
export const VoteQuerySchema = v.object({
  uploadId: v.pipe(v.string('Upload ID required'), v.nonEmpty('Upload ID required'), v.uuid('Invalid upload ID')),
})

/** POST /api/vote/anonymous */
export const AnonymousVoteSchema = v.object({
  uploadId: UploadIdSchema,
  vote: v.picklist(['upvote', 'downvote'], 'Invalid vote value'),
  clientFingerprint: v.pipe(
    v.string('Invalid client fingerprint'),
    v.minLength(8, 'Invalid client fingerprint'),
    v.maxLength(256, 'Invalid client fingerprint'),
  ),
})

export const VoteRecordSchema = v.object({
  voteId: v.pipe(v.string(), v.uuid()),
  userId: v.pipe(v.string(), v.uuid()),
  uploadId: v.pipe(v.string(), v.uuid()),
  vote: v.picklist(['fucks', 'does_not_fuck']),
})

export const VoteResponseSchema = v.object({ vote: VoteRecordSchema })
export const VoteStatusResponseSchema = v.object({ vote: v.nullable(v.picklist(['fucks', 'does_not_fuck'])) })
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
