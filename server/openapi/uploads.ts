import * as v from 'valibot'
import { SuccessSchema } from '#shared/schemas/common'
import { RemoveUploadSchema } from '#shared/schemas/removal'
import { ApiUploadFormSchema, DuplicateUploadSchema, ImageQuerySchema, PrivacyToggledSchema, UploadCreatedSchema, UploadFormSchema, UploadSchema } from '#shared/schemas/uploads'
import { IdempotencyKeyHeaderSchema } from '../utils/answer-once'
import { defineApiPaths } from '../utils/openapi'

const IdPath = v.object({ id: v.pipe(v.string(), v.uuid(), v.description('Upload id')) })
const rateLimited = { description: 'Upload rate limit (20 per hour per user) exceeded', headers: { 'Retry-After': 'Seconds until a new upload is allowed' } }
const createResponses = {
  201: { description: 'Created (or, sent again with its Idempotency-Key, the first answer); the full object is at GET /api/upload/{id}', schema: UploadCreatedSchema, headers: { 'Idempotent-Replayed': '`true` when this is the answer kept for the Idempotency-Key' } },
  400: { description: 'Invalid field, unsupported or corrupt image (or one that takes too long to process), image over 50 megapixels, animation over 500 frames, image_url that could not be fetched, or an Idempotency-Key that is not 1 to 255 visible ASCII characters' },
  401: { description: 'Not authenticated' },
  409: { description: 'The image was already uploaded (public, or one of the caller\'s own), with `existingUploadId`; or `This Idempotency-Key was sent with a different request`, without it', schema: DuplicateUploadSchema },
  451: { description: '`This image is not allowed here`: an admin banned it (the same image, or a near copy); nothing is stored' },
  413: { description: 'File over 10 MB' },
  429: rateLimited,
  503: { description: 'Image processing is busy (its queue is full), or the media storage (an S3 bucket) does not answer: try again later', headers: { 'Retry-After': 'Seconds after which to try again' } },
}
/** Bytes, with no `type: string` (generators would type them as text); see ImageUploadFormSchema's `file`. */
const imageBinary = v.pipe(v.unknown(), v.metadata({ format: 'binary', contentMediaType: 'application/octet-stream' }), v.description('The image bytes'))
/** The file part's own type: one of the accepted image types (read from the bytes anyway). */
const encoding = { file: { contentType: 'image/jpeg, image/png, image/gif, image/webp' } }

export default defineApiPaths({
  '/api/upload': {
    post: {
      operationId: 'createUpload',
      summary: 'Upload an image, an image by URL, or a link',
      description: 'Images (JPEG, PNG, GIF, WebP, at most 10 MB and 50 megapixels) are auto-oriented and stripped of all metadata; animations are kept. '
        + 'Duplicates (same content, or a resized/re-encoded copy) of a public upload or of one of the caller\'s own are refused with 409.',
      tags: ['Uploads'],
      security: ['cookie'],
      params: { header: IdempotencyKeyHeaderSchema },
      body: { multipart: UploadFormSchema, encoding },
      responses: createResponses,
    },
  },
  '/api/v1/upload': {
    post: {
      operationId: 'createUploadWithApiToken',
      summary: 'Upload an image or a link with an API token',
      description: 'As POST /api/upload, except that upload_type `image_url` is refused with 400 "Invalid upload type".',
      tags: ['Uploads'],
      security: ['apiToken'],
      params: { header: IdempotencyKeyHeaderSchema },
      body: { multipart: ApiUploadFormSchema, encoding },
      responses: { ...createResponses, 401: { description: 'Missing, invalid, expired or revoked API token' } },
    },
  },
  '/api/upload/{id}': {
    get: {
      operationId: 'getUpload',
      summary: 'One upload with its tags, uploader and stats',
      description: 'Public uploads need no credentials; a private one needs the cookie of its owner or of an admin.',
      tags: ['Uploads'],
      security: ['none', 'cookie'],
      params: { path: IdPath },
      responses: {
        200: { description: 'The full Upload object', schema: UploadSchema },
        404: { description: 'No such upload, or private and the caller is neither its owner nor an admin, or removed by its owner' },
        410: { description: '`Upload removed` (an admin removed it; its reports keep its tombstone)' },
      },
    },
    delete: {
      operationId: 'deleteUpload',
      summary: 'Delete an upload (owner or admin), with its votes, tag links and files',
      description: 'Leaves a tombstone (listed with the upload\'s reports). The owner\'s delete keeps only the id and when, and GET then answers 404. '
        + 'An admin\'s removal of someone else\'s upload keeps the description, uploader, type and `reason`, GET then answers 410, it is logged '
        + '(`upload_removed`), and the image is banned (`media_banned`: any later upload of it, or of a near copy, gets 451) unless `ban` is false. '
        + 'The body is optional; an owner\'s `ban` and `reason` are ignored.',
      tags: ['Uploads'],
      security: ['cookie'],
      params: { path: IdPath },
      body: { json: RemoveUploadSchema },
      responses: {
        200: { description: 'Deleted', schema: SuccessSchema },
        400: { description: '`ban must be a boolean`, `Reason must be at most 1000 characters`, `Invalid JSON body`' },
        401: { description: 'Not authenticated' },
        404: { description: 'No such upload, or the caller is neither its owner nor an admin' },
      },
    },
  },
  '/api/upload/{id}/privacy': {
    patch: {
      operationId: 'toggleUploadPrivacy',
      summary: 'Toggle an upload between public and private (owner only)',
      tags: ['Uploads'],
      security: ['cookie'],
      params: { path: IdPath },
      responses: {
        200: { description: 'The upload after the toggle', schema: PrivacyToggledSchema },
        401: { description: 'Not authenticated' },
        404: { description: 'No such upload, or the caller is not its owner' },
      },
    },
  },
  '/api/image/{id}': {
    get: {
      operationId: 'getImage',
      summary: 'The stored image of an upload, or one of its smaller sizes',
      description: 'Works for private uploads too (the address is the secret). Cached one year (public, immutable); ETag and If-None-Match (304).',
      tags: ['Media'],
      params: { path: IdPath, query: ImageQuerySchema },
      responses: {
        200: { description: 'The image in its own type (image/jpeg, image/png, image/gif, image/webp); `size=small`: a WebP of at most 240×240 (first frame); `size=thumb`: a WebP of at most 480×480 (first frame); `size=medium`: a WebP of at most 960×960 (animation kept); `size=display`: a WebP of at most 1600×1600 (animation kept). Never enlarged. Pages offer all four in a `srcset`', schema: imageBinary, content: 'image/*', headers: { 'ETag': 'Strong validator of the file', 'Cache-Control': 'public, max-age=31536000, immutable' } },
        304: { description: 'Not modified' },
        400: { description: 'Invalid `size` (not `small`, `thumb`, `medium` or `display`)' },
        404: { description: 'No such upload, or the upload is a link' },
        503: { description: 'A derivative not made yet (small, medium, display size, or a thumbnail lost in a crash) waits for image processing (queue full), or the media storage (an S3 bucket) does not answer: try again later', headers: { 'Retry-After': 'Seconds after which to try again' } },
      },
    },
  },
})
