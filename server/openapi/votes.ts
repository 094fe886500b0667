import { NextUnvotedQuerySchema, NextUnvotedResponseSchema } from '#shared/schemas/lists'
import {
  AnonymousVoteConflictSchema, AnonymousVoteResponseSchema, AnonymousVoteSchema, MyVotesQuerySchema, MyVotesResponseSchema,
  VoteDeleteResponseSchema, VoteQuerySchema, VoteResponseSchema, VoteSchema, VoteStatusResponseSchema,
} from '#shared/schemas/votes'
import { defineApiPaths } from '../utils/openapi'

const limited = { description: 'Rate limited', headers: { 'Retry-After': 'Seconds until the window resets' } }

export default defineApiPaths({
  '/api/vote': {
    post: {
      operationId: 'castVote',
      summary: 'Vote on an upload',
      description: 'A new vote replaces the earlier one; the same value again changes nothing. A shadow-banned user\'s vote is recorded and answered normally but not counted.',
      tags: ['Votes'],
      security: ['cookie'],
      body: { json: VoteSchema },
      responses: {
        200: { description: 'The vote record', schema: VoteResponseSchema },
        400: { description: '`Invalid vote value`, or `Invalid upload ID` (unknown, malformed, or private and not the caller\'s)' },
        401: { description: 'Not authenticated' },
        429: limited,
      },
    },
    get: {
      operationId: 'getVote',
      summary: 'The caller\'s vote on one upload',
      tags: ['Votes'],
      security: ['cookie'],
      params: { query: VoteQuerySchema },
      responses: {
        200: { description: 'The vote, or null when the caller has not voted', schema: VoteStatusResponseSchema },
        400: { description: '`Upload ID required`' },
        401: { description: 'Not authenticated' },
      },
    },
    delete: {
      operationId: 'withdrawVote',
      summary: 'Withdraw the caller\'s vote',
      tags: ['Votes'],
      security: ['cookie'],
      params: { query: VoteQuerySchema },
      responses: {
        200: { description: 'Removed (or there was none)', schema: VoteDeleteResponseSchema },
        400: { description: '`Upload ID required`' },
        401: { description: 'Not authenticated' },
        429: limited,
      },
    },
  },
  '/api/vote/next': {
    get: {
      operationId: 'getNextUnvotedUpload',
      summary: 'The newest public upload the caller has not voted on',
      description: 'Signed in: by the account\'s votes, its hidden tags and the ratings it hides (PUT /api/profile/preferences) left out. `rating=` (as on the lists) keeps only those ratings: how a visitor\'s browser leaves out what it hides. Without a session: `clientFingerprint` is required, and an upload counts as voted when either the fingerprint or the keyed hash of the caller\'s IP has voted on it. `upload` is null when nothing is left. Cache-Control: private, no-store.',
      tags: ['Votes'],
      security: ['none', 'cookie'],
      params: { query: NextUnvotedQuerySchema },
      responses: {
        200: { description: 'The next upload to vote on, or null', schema: NextUnvotedResponseSchema, headers: { 'Cache-Control': 'private, no-store' } },
        400: { description: '`Invalid client fingerprint` (missing without a session, or not 8–256 characters), `Invalid rating`' },
      },
    },
  },
  '/api/vote/mine': {
    get: {
      operationId: 'getMyVotes',
      summary: 'The caller\'s votes on a page of uploads',
      description: 'For blind voting across devices: a card whose upload the account has voted on (anywhere) shows its counts. Repeated ids count once. Cache-Control: private, no-store.',
      tags: ['Votes'],
      security: ['cookie'],
      params: { query: MyVotesQuerySchema },
      responses: {
        200: { description: 'The votes by upload id', schema: MyVotesResponseSchema, headers: { 'Cache-Control': 'private, no-store' } },
        400: { description: '`Upload IDs required`, `Too many upload IDs` (more than 100), `Invalid upload ID`, `Invalid upload IDs` (uploadIds given more than once)' },
        401: { description: 'Not authenticated' },
      },
    },
  },
  '/api/vote/anonymous': {
    post: {
      operationId: 'castAnonymousVote',
      summary: 'Vote without an account',
      description: 'One vote per visitor and upload: the keyed SHA-256 of the IP is checked first, the client fingerprint independently; either match is a 409. IPs are never stored in plain text.',
      tags: ['Votes'],
      body: { json: AnonymousVoteSchema },
      responses: {
        200: { description: 'Vote counted', schema: AnonymousVoteResponseSchema },
        400: { description: '`Invalid upload ID` (private or unknown), `Invalid vote value`, `Invalid client fingerprint`' },
        409: { description: 'Already voted', schema: AnonymousVoteConflictSchema },
        429: limited,
      },
    },
  },
})
