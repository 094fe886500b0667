import type * as v from 'valibot'
import { COMMENT_DRAFT_PREFIX, forgetOldDrafts, keptDraft } from './keptDraft'
import type {
  CommentPreviewSchema, CommentResponseSchema, CommentsPageSchema, CommentVoteResponseSchema,
} from '#shared/schemas/comments'
import type { COMMENT_SORTS } from '#shared/utils/comment-limits'

export type CommentsPage = v.InferOutput<typeof CommentsPageSchema>
export type CommentSort = (typeof COMMENT_SORTS)[number]

/**
 * A writer's length as the server counts it (code points, once trimmed). A box
 * has no maxlength: that would cut a longer paste without a word (and counts
 * UTF-16 units); a text over the limit stays, says so (UploadCommentLength),
 * and cannot be posted until shortened. The count shows from COMMENT_COUNT_FROM on.
 */
export const commentLength = (text: string) => [...text.trim()].length
export const COMMENT_COUNT_FROM = 1800

/** An upload's comments: the thread, posting, replying, editing, deleting, voting and the preview. */
export function useComments() {
  const api = useApi()
  return {
    list: (uploadId: string, query: { page: number, sort: CommentSort }) =>
      api<CommentsPage>(`/api/upload/${uploadId}/comments`, { query: { page: query.page, sort: query.sort }, cache: 'no-store' }),
    /** `key`: the Idempotency-Key (requestKeyFor), so posting again after a lost answer posts once. */
    post: (uploadId: string, body: string, parentId: string | undefined, key: string) =>
      api<v.InferOutput<typeof CommentResponseSchema>>(`/api/upload/${uploadId}/comments`, { method: 'POST', body: { body, ...(parentId ? { parentId } : {}) }, headers: { 'idempotency-key': key } }),
    edit: (id: string, body: string) => api<v.InferOutput<typeof CommentResponseSchema>>(`/api/comments/${id}`, { method: 'PATCH', body: { body } }),
    remove: (id: string) => api<{ success: true }>(`/api/comments/${id}`, { method: 'DELETE' }),
    vote: (id: string, vote: 'up' | 'down' | null) =>
      api<v.InferOutput<typeof CommentVoteResponseSchema>>(`/api/comments/${id}/vote`, { method: 'PUT', body: { vote } }),
    preview: (body: string) => api<v.InferOutput<typeof CommentPreviewSchema>>('/api/comments/preview', { method: 'POST', body: { body } }),
  }
}

/**
 * The unsent texts of an upload's comment writers, by writer (`new`,
 * `reply:<id>`, `edit:<id>`), so opening another writer never throws one
 * away. New comments and replies are also kept on this device (keptDraft)
 * until they are posted or cancelled (docs/behaviour.md, Community).
 */
export function useCommentDrafts(uploadId: string) {
  const drafts = reactive(new Map<string, string>())
  const kept = keptDraft(`${COMMENT_DRAFT_PREFIX}${uploadId}`)

  function store() {
    const texts = [...drafts].filter(([target, text]) => !target.startsWith('edit:') && text.trim())
    kept.write(texts.length ? Object.fromEntries(texts) : undefined)
  }

  onMounted(() => {
    forgetOldDrafts(COMMENT_DRAFT_PREFIX)
    const texts = kept.read()
    if (texts && typeof texts === 'object') {
      for (const [target, text] of Object.entries(texts)) {
        if (typeof text === 'string' && !drafts.has(target)) drafts.set(target, text)
      }
    }
    watch(drafts, store, { deep: true })
  })

  return {
    /** The text of `target`'s writer. */
    text: (target: string) => drafts.get(target) ?? '',
    /** Gives `target`'s writer `initial` as its text, unless it has one already. */
    start: (target: string, initial: string) => {
      if (!drafts.has(target)) drafts.set(target, initial)
    },
    set: (target: string, text: string) => {
      drafts.set(target, text)
    },
    /** Forgets `target`'s text (posted, or cancelled). */
    drop: (target: string) => {
      drafts.delete(target)
    },
  }
}
