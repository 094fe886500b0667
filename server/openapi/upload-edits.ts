import * as v from 'valibot'
import { EditedUploadSchema, EditUploadSchema, HistoryQuerySchema, HistoryResponseSchema, LockUploadSchema, RevertUploadSchema, UploadTagRemovedSchema } from '#shared/schemas/upload-edits'
import { UploadSchema } from '#shared/schemas/uploads'
import { defineApiPaths } from '../utils/openapi'

const IdPath = v.object({ id: v.pipe(v.string(), v.uuid(), v.description('Upload id')) })
const TagPath = v.object({
  id: v.pipe(v.string(), v.uuid(), v.description('Upload id')),
  slug: v.pipe(v.string(), v.description('The tag\'s slug (a name is slugified)')),
})

export default defineApiPaths({
  '/api/upload/{id}': {
    patch: {
      operationId: 'editUpload',
      summary: 'Edit an upload\'s description, tags, link or rating (owner or admin), as a new revision',
      description: '`tags` is the complete new list (tag rules, at most 10): tags it lacks are removed, new ones added. '
        + '`externalUrl` only for links. `rating`: safe, suggestive or explicit (400 `Invalid rating` otherwise); an admin\'s change of another\'s upload is logged (upload_edited). Other keys are ignored. A body equal to the current state changes nothing and answers the current revision. '
        + 'Send `If-Match` with the ETag of GET /api/upload/{id}, read with the same credentials (the answer, and so its ETag, differs per caller), to refuse the change when the upload changed meanwhile (412). '
        + 'The file, type, owner, creation time and votes never change; parallel edits apply one after the other.',
      tags: ['Uploads'],
      security: ['cookie'],
      params: { path: IdPath },
      body: { json: EditUploadSchema },
      responses: {
        200: { description: 'The upload after the edit and its revision', schema: EditedUploadSchema },
        400: { description: 'Invalid field (named in the message), `Not a link` for externalUrl on an image, or `Nothing to change`' },
        401: { description: 'Not authenticated' },
        403: { description: '`Not your upload`, or `Upload is locked` (only admins may edit it)' },
        404: { description: 'No such upload, or private and the caller is neither its owner nor an admin' },
        412: { description: '`Upload changed`: If-Match names an older version' },
      },
    },
  },
  '/api/upload/{id}/history': {
    get: {
      operationId: 'getUploadHistory',
      summary: 'An upload\'s revisions, newest first; revision 1 is its creation',
      description: 'Readable by whoever can see the upload. `actor` is null once that account is deleted.',
      tags: ['Uploads'],
      security: ['none', 'cookie'],
      params: { path: IdPath, query: HistoryQuerySchema },
      responses: {
        200: { description: 'A page of revisions', schema: HistoryResponseSchema },
        400: { description: 'Invalid page or limit' },
        404: { description: 'No such upload, or private and the caller is neither its owner nor an admin' },
      },
    },
  },
  '/api/uploads/{id}/tags/{slug}': {
    delete: {
      operationId: 'removeUploadTag',
      summary: 'Remove one tag from an upload (owner or admin); a new revision when it was there',
      tags: ['Tags'],
      security: ['cookie'],
      params: { path: TagPath },
      responses: {
        200: { description: 'The tags left; `removed` 1 when the tag was on the upload, else 0', schema: UploadTagRemovedSchema },
        400: { description: 'Malformed id' },
        401: { description: 'Not authenticated' },
        403: { description: '`Not your upload`, or `Upload is locked`' },
        404: { description: 'No such upload, or private and the caller is neither its owner nor an admin' },
      },
    },
  },
  '/api/admin/uploads/{id}/revert': {
    post: {
      operationId: 'revertUpload',
      summary: 'Restore a revision\'s description, link and tags as a new revision (admins only; logged)',
      tags: ['Admin'],
      security: ['cookie'],
      params: { path: IdPath },
      body: { json: RevertUploadSchema },
      responses: {
        200: { description: 'The upload after the revert and its revision (unchanged when it already was that way)', schema: EditedUploadSchema },
        400: { description: 'Malformed id, revision or note' },
        401: { description: 'Not authenticated' },
        403: { description: 'Not an admin' },
        404: { description: 'No such upload or revision' },
      },
    },
  },
  '/api/admin/uploads/{id}/lock': {
    post: {
      operationId: 'lockUpload',
      summary: 'Lock an upload (only admins may edit it) or unlock it (admins only; logged)',
      tags: ['Admin'],
      security: ['cookie'],
      params: { path: IdPath },
      body: { json: LockUploadSchema },
      responses: {
        200: { description: 'The upload with its `locked` flag', schema: v.object({ upload: UploadSchema }) },
        400: { description: 'Malformed id, `locked` or note' },
        401: { description: 'Not authenticated' },
        403: { description: 'Not an admin' },
        404: { description: 'No such upload' },
      },
    },
  },
})
