import { MAX_TAGS_PER_UPLOAD, parseTagName, TAG_NAME_MESSAGE } from '#shared/utils/tags'
import type { ContentRating } from '#shared/utils/content-rating'
import { PERIOD_SORTS, PERIODS, SORTS, type Period, type Sort } from '#shared/utils/ranking'
import type * as v from 'valibot'
import type { SuccessSchema } from '#shared/schemas/common'
import type { FeatureListResponseSchema, MyUploadsResponseSchema, NextUnvotedResponseSchema, UserListEntrySchema, UserListResponseSchema } from '#shared/schemas/lists'
import type { AddTagsResponseSchema, TagSchema, TagSearchResponseSchema } from '#shared/schemas/tags'
import type { PrivacyToggledSchema, UploadCreatedSchema, UploadSchema } from '#shared/schemas/uploads'
import { IMAGE_SIZES, MAX_DESCRIPTION_LENGTH, THUMB_SIZE, type ImageSize } from '#shared/utils/upload-limits'
import type { EditedUploadSchema, HistoryResponseSchema } from '#shared/schemas/upload-edits'

/** Response types come from the same schemas as the API's OpenAPI document. */
export type Tag = v.InferOutput<typeof TagSchema>

export type TagWithCount = v.InferOutput<typeof TagSearchResponseSchema>['tags'][number]

/** An entry of the upload lists; `username` is absent from the per-user list. */
export type UploadListItem = v.InferOutput<typeof UserListEntrySchema> & { username?: string }

/** GET /api/items-recent and /api/items-top-voted. */
type FeatureList = v.InferOutput<ReturnType<typeof FeatureListResponseSchema>>

/** GET /api/upload/{id}. */
export type Upload = v.InferOutput<typeof UploadSchema>

/** PATCH /api/upload/{id}: the fields an edit may change, and why. */
export interface UploadEdit {
  description?: string
  tags?: string[]
  externalUrl?: string
  rating?: ContentRating
  reason?: string
}
export type EditedUpload = v.InferOutput<typeof EditedUploadSchema>
/** GET /api/upload/{id}/history. */
export type UploadHistory = v.InferOutput<typeof HistoryResponseSchema>
export type UploadRevision = UploadHistory['revisions'][number]

export interface UploadPage {
  uploads: UploadListItem[]
  page: number
  limit: number
  total?: number
}

export type UserUploadPage = v.InferOutput<typeof UserListResponseSchema>

/** The sorts of a user's uploads (GET /api/user/{username}/uploads and /api/profile/uploads), default first. */
export const USER_SORTS = ['date', 'votes', 'name', 'favourites'] as const
export type UserSort = typeof USER_SORTS[number]

/** The sort a `?sort=` value names; anything else is the default. */
export function userSortFrom(value: unknown): UserSort {
  return USER_SORTS.find(sort => sort === value) ?? 'date'
}

/** The ranking a `?sort=` value names, and the period of `?period=`; anything else is the default. */
export function sortFrom(value: unknown): Sort {
  return SORTS.find(sort => sort === value) ?? 'new'
}
export function periodFrom(value: unknown): Period {
  return PERIODS.find(period => period === value) ?? 'all'
}

/** How many uploads a page of the feed shows (`?limit=`), the default first: whole rows of a four-column grid. */
export const FEED_PAGE_SIZES = [12, 24, 48] as const
export type FeedPageSize = typeof FEED_PAGE_SIZES[number]

/** The page size a `?limit=` value names; anything else is the default. */
export function feedPageSizeFrom(value: unknown): FeedPageSize {
  return FEED_PAGE_SIZES.find(size => String(size) === value) ?? FEED_PAGE_SIZES[0]
}

/** GET /api/profile/uploads: the caller's own uploads, private ones included. */
export type MyUploadPage = v.InferOutput<typeof MyUploadsResponseSchema>

export type CreatedUpload = v.InferOutput<typeof UploadCreatedSchema>['upload']

/** Outcome of POST /api/upload sent through XMLHttpRequest (for its upload progress). */
export type CreateResult
  = | { ok: true, upload: CreatedUpload }
    | { ok: false, status: number, message: string, existingUploadId?: string }

export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp']
export const MAX_DESCRIPTION = MAX_DESCRIPTION_LENGTH
export const MAX_TAGS = MAX_TAGS_PER_UPLOAD

/** Client-side check of a tag name with the server's own rule (shared/utils/tags.ts). */
export function tagNameProblem(name: string): string | null {
  return parseTagName(name) ? null : TAG_NAME_MESSAGE
}

/** Reads, writes and media addresses of uploads and their tags. */
export function useUploads() {
  const api = useApi()
  const blind = useBlindVoting()

  /** A list answer whose cards' counts blind voting hides, server-rendered without them (useBlindVoting). */
  const blindly = <K extends string>(key: K) => async <T extends { [P in K]: UploadListItem[] }>(answer: T): Promise<T> => {
    if (!import.meta.server) return answer
    const cards = await blind.withoutHiddenCounts(answer[key])
    return cards === answer[key] ? answer : { ...answer, [key]: cards } as T
  }

  function list(options: { page?: number, limit?: number, tags?: string[], sort?: Sort, period?: Period, unvoted?: boolean, rating?: readonly ContentRating[] | null } = {}) {
    const query: Record<string, string | number> = { page: options.page ?? 1, limit: options.limit ?? 12 }
    if (options.sort && options.sort !== 'new') query.sort = options.sort
    if (options.sort && PERIOD_SORTS.includes(options.sort) && options.period && options.period !== 'all') query.period = options.period
    if (options.unvoted) query.unvoted = 'true'
    if (options.rating) query.rating = options.rating.join(',')
    const page = options.tags?.length
      ? api<UploadPage>('/api/uploads/filtered', { query: { ...query, tags: options.tags.join(',') } })
      : api<UploadPage>('/api/uploads', { query })
    return page.then(blindly('uploads'))
  }

  const recent = () => api<FeatureList & { type: 'recent' }>('/api/items-recent').then(blindly('items'))
  const topVoted = () => api<FeatureList & { type: 'top-voted' }>('/api/items-top-voted').then(blindly('items'))
  const get = (id: string) => api<Upload>(`/api/upload/${encodeURIComponent(id)}`)

  /** GET /api/vote/next: the newest public upload this visitor (account, or fingerprint and IP) has not voted on. */
  /** GET /api/vote/next; `rating`: only these ratings (useContentRatings().shown()). */
  async function nextToVote(signedIn: boolean, rating?: readonly ContentRating[] | null) {
    const query = { ...(signedIn ? {} : { clientFingerprint: await fingerprint() }), ...(rating ? { rating: rating.join(',') } : {}) }
    return api<v.InferOutput<typeof NextUnvotedResponseSchema>>('/api/vote/next', { query })
  }

  function byUser(username: string, options: { page?: number, sort?: UserSort, tags?: string[] } = {}) {
    const query: Record<string, string | number> = { page: options.page ?? 1, limit: 12, sort: options.sort ?? 'date' }
    if (options.tags?.length) query.tags = options.tags.join(',')
    return api<UserUploadPage>(`/api/user/${encodeURIComponent(username)}/uploads`, { query }).then(blindly('uploads'))
  }

  const mine = (options: { page?: number, sort?: UserSort } = {}) =>
    api<MyUploadPage>('/api/profile/uploads', { query: { page: options.page ?? 1, limit: 12, sort: options.sort ?? 'date' } })

  const tags = (q = '', limit = 20) => api<v.InferOutput<typeof TagSearchResponseSchema>>('/api/tags', { query: { ...(q ? { q } : {}), limit } })

  const togglePrivacy = (id: string) =>
    api<v.InferOutput<typeof PrivacyToggledSchema>>(`/api/upload/${id}/privacy`, { method: 'PATCH' })

  /**
   * Deletes an upload, and the drafts this browser kept for it. An admin removing someone
   * else's upload may give a reason and keep its image allowed (`ban: false`).
   */
  async function remove(id: string, moderation?: { reason?: string, ban?: boolean }) {
    const answer = await api<v.InferOutput<typeof SuccessSchema>>(`/api/upload/${id}`, { method: 'DELETE', ...(moderation ? { body: moderation } : {}) })
    forgetUploadDrafts(id)
    return answer
  }

  const addTags = (id: string, names: string[]) =>
    api<v.InferOutput<typeof AddTagsResponseSchema>>(`/api/uploads/${id}/tags`, { method: 'POST', body: { tags: names } })

  /** GET /api/upload/{id} with its ETag: the version an edit starts from (sent back as If-Match). */
  async function getForEdit(id: string): Promise<{ upload: Upload, etag: string | null }> {
    const response = await $fetch.raw<Upload>(`/api/upload/${encodeURIComponent(id)}`, { cache: 'no-cache' })
    return { upload: response._data!, etag: response.headers.get('etag') }
  }

  /** PATCH /api/upload/{id}: 412 when `etag` is no longer the upload's (someone changed it meanwhile). */
  const edit = (id: string, body: UploadEdit, etag: string | null) =>
    api<EditedUpload>(`/api/upload/${id}`, { method: 'PATCH', body: { ...body }, headers: etag ? { 'if-match': etag } : {} })

  const history = (id: string, page = 1) => api<UploadHistory>(`/api/upload/${id}/history`, { query: { page, limit: 20 } })

  const revert = (id: string, revision: number) =>
    api<EditedUpload>(`/api/admin/uploads/${id}/revert`, { method: 'POST', body: { revision } })

  const lock = (id: string, locked: boolean) =>
    api<{ upload: Upload }>(`/api/admin/uploads/${id}/lock`, { method: 'POST', body: { locked } })

  /**
   * POST /api/upload with upload progress (fetch cannot report it); a stalled upload ends with a message (docs/behaviour.md, Uploads and media).
   * `key`: the Idempotency-Key (requestKeyFor), so sending again after a lost answer makes one upload.
   */
  function create(form: FormData, key: string, onProgress?: (fraction: number) => void): Promise<CreateResult> {
    return new Promise((resolve) => {
      const xhr = new XMLHttpRequest()
      const watchdog = uploadWatchdog((reason) => {
        xhr.abort()
        resolve({ ok: false, status: 0, message: UPLOAD_STALL_MESSAGES[reason] })
      })
      xhr.open('POST', '/api/upload')
      xhr.responseType = 'json'
      xhr.setRequestHeader('accept', 'application/json')
      xhr.setRequestHeader('idempotency-key', key)
      xhr.upload.addEventListener('progress', (event) => {
        watchdog.progress()
        if (event.lengthComputable) onProgress?.(event.loaded / event.total)
      })
      xhr.upload.addEventListener('load', () => watchdog.sent())
      xhr.addEventListener('loadend', () => watchdog.stop())
      xhr.addEventListener('load', () => {
        const body = (xhr.response ?? {}) as Record<string, unknown>
        if (xhr.status === 201 || xhr.status === 200) {
          onProgress?.(1)
          resolve({ ok: true, upload: body.upload as CreatedUpload })
          return
        }
        const message = xhr.status === 413
          ? 'The file is larger than 10 MB.'
          : xhr.status === 429
            ? `You have uploaded a lot recently. ${tryAgainIn(xhr.getResponseHeader('retry-after'))}`
            : typeof body.message === 'string' ? body.message : 'The upload failed. Please try again.'
        resolve({ ok: false, status: xhr.status, message, existingUploadId: typeof body.existingUploadId === 'string' ? body.existingUploadId : undefined })
      })
      xhr.addEventListener('error', () => resolve({ ok: false, status: 0, message: 'Could not reach the server. Check your connection.' }))
      xhr.send(form)
    })
  }

  return { list, recent, topVoted, get, nextToVote, byUser, mine, tags, togglePrivacy, remove, addTags, create, getForEdit, edit, history, revert, lock }
}

/** How long an upload may send nothing, and how long its answer may take once every byte is sent. */
export const UPLOAD_STALL_MS = 60_000
export const UPLOAD_ANSWER_MS = 180_000

/** What the upload form says when the watchdog ends an upload. */
export const UPLOAD_STALL_MESSAGES = {
  stalled: 'The upload made no progress for a minute and was stopped. Check your connection and try again.',
  unanswered: 'The server has not answered for 3 minutes. It may have been saved: sending it again will not make a second one.',
} as const

/**
 * Ends an upload that no longer moves: `onStall('stalled')` when no byte has
 * been sent for `stallMs` (from the start, or the last progress), or
 * `onStall('unanswered')` when no answer came within `answerMs` of the last
 * byte. Call `progress()` on every progress event, `sent()` once the body is
 * sent, and `stop()` when the request ends.
 */
export function uploadWatchdog(onStall: (reason: keyof typeof UPLOAD_STALL_MESSAGES) => void, stallMs = UPLOAD_STALL_MS, answerMs = UPLOAD_ANSWER_MS) {
  let timer: ReturnType<typeof setTimeout> | undefined
  let done = false
  const arm = (ms: number, reason: keyof typeof UPLOAD_STALL_MESSAGES) => {
    clearTimeout(timer)
    if (done) return
    timer = setTimeout(() => {
      done = true
      onStall(reason)
    }, ms)
  }
  arm(stallMs, 'stalled')
  let sent = false
  return {
    progress: () => {
      if (!sent) arm(stallMs, 'stalled')
    },
    sent: () => {
      sent = true
      arm(answerMs, 'unanswered')
    },
    stop: () => {
      done = true
      clearTimeout(timer)
    },
  }
}

/** Address of an upload's image, or a WebP of at most `IMAGE_SIZES[size]` px a side (small 240, thumb 480, medium 960, display 1600). */
export function imageUrl(id: string, size?: ImageSize): string {
  return `/api/image/${id}${size ? `?size=${size}` : ''}`
}

const SIZES_SMALLEST_FIRST = Object.entries(IMAGE_SIZES) as [ImageSize, number][]

/**
 * The `srcset` of an upload's picture: its four derivatives (240, 480, 960,
 * 1600 px), each described by its longest side (a landscape picture's width;
 * never enlarged, so a small original only looks denser than it is). The
 * browser takes the smallest that fills the slot `sizes` names at the
 * screen's density; each is at most 2× the one before, so that pick is never
 * more than 2× the slot.
 */
export function imageSrcset(id: string): string {
  return SIZES_SMALLEST_FIRST.map(([size, width]) => `${imageUrl(id, size)} ${width}w`).join(', ')
}

/** Width and height attributes of a card's picture: the thumbnail in the card's 4:3 slot (UploadGrid). */
export const CARD_IMAGE = { width: THUMB_SIZE, height: THUMB_SIZE * 3 / 4 } as const

/**
 * `sizes` of a card in a `.grid` (main.css: columns of at least 260 px, 16 px
 * apart, in a container of at most 1180 px with 16 px padding): 4 columns of
 * 275 px on a wide screen, then 3, 2 and 1 as the window narrows.
 */
export const CARD_SIZES = '(min-width: 1180px) 275px, (min-width: 1120px) calc((100vw - 80px) / 4), '
  + '(min-width: 844px) calc((100vw - 64px) / 3), (min-width: 568px) calc((100vw - 48px) / 2), calc(100vw - 32px)'

/**
 * `sizes` of a compact card (UploadGrid `.compact`: columns of at least 170 px,
 * at most about 240 px; 6 of 178 px on a wide screen; 62% of the row on a phone).
 */
export const COMPACT_CARD_SIZES = '(max-width: 640px) calc(62vw - 20px), (min-width: 1180px) 178px, 240px'

/** `sizes` of the upload page's picture: 1.6 of 2.6 columns of the page (pages/upload/[id].vue), the whole row below 900 px. */
export const DETAIL_IMAGE_SIZES = '(min-width: 1180px) 692px, (min-width: 901px) calc((100vw - 56px) * 0.615), calc(100vw - 32px)'

/** `sizes` of vote mode's picture (pages/vote.vue: at most 820 px wide). */
export const VOTE_IMAGE_SIZES = '(min-width: 852px) 820px, calc(100vw - 32px)'
