import { IdParamsSchema } from '#shared/schemas/common'
import * as v from 'valibot'
import {
  AddAliasResponseSchema, AddAliasSchema, AddImplicationResponseSchema, AddImplicationSchema, AddTagsResponseSchema, AddTagsSchema, AliasParamsSchema,
  ImplicationParamsSchema, TagDetailResponseSchema, TagListSchema, TagRulesResponseSchema, TagSearchQuerySchema, TagSearchResponseSchema, TagSlugParamsSchema,
} from '#shared/schemas/tags'
import { defineApiPaths } from '../utils/openapi'

const Removed = v.object({ success: v.literal(true) })

export default defineApiPaths({
  '/api/uploads/{id}/tags': {
    get: {
      operationId: 'listUploadTags',
      summary: 'Tags of an upload',
      description: 'A private upload answers only its owner or an admin (by the cookie); others get 404.',
      tags: ['Tags'],
      security: ['none', 'cookie'],
      params: { path: IdParamsSchema },
      responses: {
        200: { description: 'The tags', schema: TagListSchema },
        400: { description: 'Malformed id' },
        404: { description: 'Upload not found' },
      },
    },
    post: {
      operationId: 'addUploadTags',
      summary: 'Add tags to an upload (owner or admin)',
      description: 'Tags already on the upload are skipped and not counted in `added`. At most 10 tags per upload. '
        + 'Tags added are a new revision of the upload (its history), like an edit; a locked upload takes tags from an admin only. '
        + 'A name is 2–50 letters, digits, spaces or hyphens after trimming; case is kept, the slug is lowercased. '
        + 'One tag row per slug is shared by every upload.',
      tags: ['Tags'],
      security: ['cookie'],
      params: { path: IdParamsSchema },
      body: { json: AddTagsSchema },
      responses: {
        200: { description: 'The full, updated tag list', schema: AddTagsResponseSchema },
        400: { description: 'tags missing, empty or not an array; invalid name; more than 10 tags' },
        401: { description: 'Not authenticated' },
        403: { description: '`Only the owner or an admin can add tags`, or `Upload is locked`' },
        404: { description: 'Upload not found' },
      },
    },
  },
  '/api/tags': {
    get: {
      operationId: 'searchTags',
      summary: 'Tag discovery',
      description: 'Tags used on public uploads whose slug starts with `q`, most used first; `count` counts public uploads.',
      tags: ['Tags'],
      params: { query: TagSearchQuerySchema },
      responses: {
        200: { description: 'Matching tags', schema: TagSearchResponseSchema },
        400: { description: 'Invalid limit or query' },
      },
    },
  },
  '/api/tags/{slug}': {
    get: {
      operationId: 'getTag',
      summary: 'A tag with its aliases and implications',
      description: 'An alias slug answers its tag. `count` counts public uploads; `aliases` are the slugs that resolve to the tag, '
        + '`implies` the tags it adds to an upload, `impliedBy` the tags that add it (direct ones, by slug). '
        + 'A tag only private uploads carry, and no alias or implication names, is not found.',
      tags: ['Tags'],
      params: { path: TagSlugParamsSchema },
      responses: {
        200: { description: 'The tag', schema: TagDetailResponseSchema },
        400: { description: '`Invalid tag`: not a tag slug' },
        404: { description: '`Tag not found`' },
      },
    },
  },
  '/api/admin/tags/rules': {
    get: {
      operationId: 'listTagRules',
      summary: 'Every tag alias and implication (admins only)',
      tags: ['Admin'],
      security: ['cookie'],
      responses: {
        200: { description: 'Aliases by `from` slug, implications by tag slug', schema: TagRulesResponseSchema },
        401: { description: 'Not authenticated' },
        403: { description: 'Not an admin' },
      },
    },
  },
  '/api/admin/tags/aliases': {
    post: {
      operationId: 'addTagAlias',
      summary: 'Make a slug an alias of a tag (admins only; logged)',
      description: '`from` then resolves to `to` wherever a tag is read or written: uploads and edits, tag filters and hidden tags, '
        + 'search, tag pages and feeds. Uploads carrying `from` carry `to` instead (once, where they had both; `moved` counts them), '
        + 'completed by `to`\'s implications within the 10-tag cap.',
      tags: ['Admin'],
      security: ['cookie'],
      body: { json: AddAliasSchema },
      responses: {
        201: { description: 'The alias', schema: AddAliasResponseSchema },
        400: { description: '`Invalid tag`; `A tag cannot be an alias of itself`; `An alias cannot point to an alias` (`to` is an alias); '
          + '`A tag with aliases cannot become an alias`; `A tag with implications cannot become an alias`' },
        401: { description: 'Not authenticated' },
        403: { description: 'Not an admin' },
        404: { description: '`Tag not found`: no tag `to`' },
        409: { description: '`Alias already exists`: `from` is an alias already' },
      },
    },
  },
  '/api/admin/tags/aliases/{from}': {
    delete: {
      operationId: 'removeTagAlias',
      summary: 'Remove an alias (admins only; logged)',
      description: 'Links already moved to the tag stay there.',
      tags: ['Admin'],
      security: ['cookie'],
      params: { path: AliasParamsSchema },
      responses: {
        200: { description: 'Removed', schema: Removed },
        400: { description: '`Invalid tag`' },
        401: { description: 'Not authenticated' },
        403: { description: 'Not an admin' },
        404: { description: '`Alias not found`' },
      },
    },
  },
  '/api/admin/tags/implications': {
    post: {
      operationId: 'addTagImplication',
      summary: 'Make a tag imply another (admins only; logged)',
      description: 'An upload carrying `tag` (or a tag implying it) also carries `implies` and what that implies, now and whenever it is tagged, '
        + 'while it has room under the 10-tag cap (an upload at 10 keeps its tags; `added` counts the links added now). Aliases resolve first.',
      tags: ['Admin'],
      security: ['cookie'],
      body: { json: AddImplicationSchema },
      responses: {
        201: { description: 'The implication', schema: AddImplicationResponseSchema },
        400: { description: '`Invalid tag`; `Invalid implication`: a cycle (`data.reason`: `cycle`), or a chain of more than 5 implications (`chain`)' },
        401: { description: 'Not authenticated' },
        403: { description: 'Not an admin' },
        404: { description: '`Tag not found`' },
        409: { description: '`Implication already exists`' },
      },
    },
  },
  '/api/admin/tags/implications/{tag}/{implies}': {
    delete: {
      operationId: 'removeTagImplication',
      summary: 'Remove an implication (admins only; logged)',
      description: 'Tags it already added stay.',
      tags: ['Admin'],
      security: ['cookie'],
      params: { path: ImplicationParamsSchema },
      responses: {
        200: { description: 'Removed', schema: Removed },
        400: { description: '`Invalid tag`' },
        401: { description: 'Not authenticated' },
        403: { description: 'Not an admin' },
        404: { description: '`Tag not found`, `Implication not found`' },
      },
    },
  },
})
