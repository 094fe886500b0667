import type * as v from 'valibot'
import type {
  CommentPreviewSchema, CommentResponseSchema, CommentsPageSchema, CommentVoteResponseSchema, COMMENT_SORTS,
} from '#shared/schemas/comments'

export type CommentsPage = v.InferOutput<typeof CommentsPageSchema>
export type CommentSort = (typeof COMMENT_SORTS)[number]

/** An upload's comments: the thread, posting, replying, editing, deleting, voting and the preview. */
export function useComments() {
  const api = useApi()
  return {
    list: (uploadId: string, query: { page: number, sort: CommentSort }) =>
      api<CommentsPage>(`/api/upload/${uploadId}/comments`, { query: { page: query.page, sort: query.sort }, cache: 'no-store' }),
    post: (uploadId: string, body: string, parentId?: string) =>
      api<v.InferOutput<typeof CommentResponseSchema>>(`/api/upload/${uploadId}/comments`, { method: 'POST', body: { body, ...(parentId ? { parentId } : {}) } }),
    edit: (id: string, body: string) => api<v.InferOutput<typeof CommentResponseSchema>>(`/api/comments/${id}`, { method: 'PATCH', body: { body } }),
    remove: (id: string) => api<{ success: true }>(`/api/comments/${id}`, { method: 'DELETE' }),
    vote: (id: string, vote: 'up' | 'down' | null) =>
      api<v.InferOutput<typeof CommentVoteResponseSchema>>(`/api/comments/${id}/vote`, { method: 'PUT', body: { vote } }),
    preview: (body: string) => api<v.InferOutput<typeof CommentPreviewSchema>>('/api/comments/preview', { method: 'POST', body: { body } }),
  }
}

/** How long an unsent comment is kept on this device. */
const DRAFT_DAYS = 30
const DRAFT_PREFIX = 'comment-drafts:'

/**
 * The unsent texts of an upload's comment writers, by writer (`new`,
 * `reply:<id>`, `edit:<id>`), so opening another writer never throws one
 * away. New comments and replies are also kept in this browser's
 * localStorage until they are posted or cancelled, so a reload, a crash or
 * a closed tab loses nothing (docs/behaviour.md, Community). Read after
 * mount: the server renders every writer empty.
 */
export function useCommentDrafts(uploadId: string) {
  const drafts = reactive(new Map<string, string>())
  const key = `${DRAFT_PREFIX}${uploadId}`

  const keptOnDevice = () => Object.fromEntries([...drafts].filter(([target, text]) => !target.startsWith('edit:') && text.trim()))

  function store() {
    try {
      const kept = keptOnDevice()
      if (Object.keys(kept).length) localStorage.setItem(key, JSON.stringify({ savedAt: Date.now(), drafts: kept }))
      else localStorage.removeItem(key)
    }
    catch { /* storage full or unavailable: the drafts still live in the page */ }
  }

  onMounted(() => {
    try {
      forgetOldDrafts()
      const kept = JSON.parse(localStorage.getItem(key) ?? 'null') as { drafts?: Record<string, unknown> } | null
      for (const [target, text] of Object.entries(kept?.drafts ?? {})) {
        if (typeof text === 'string' && !drafts.has(target)) drafts.set(target, text)
      }
    }
    catch { /* unreadable: nothing to restore */ }
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

/** Drops the drafts of every upload not touched for DRAFT_DAYS. */
function forgetOldDrafts() {
  const oldest = Date.now() - DRAFT_DAYS * 24 * 60 * 60 * 1000
  for (let i = localStorage.length - 1; i >= 0; i--) {
    const name = localStorage.key(i)
    if (!name?.startsWith(DRAFT_PREFIX)) continue
    let savedAt = 0
    try {
      savedAt = Number((JSON.parse(localStorage.getItem(name)!) as { savedAt?: unknown }).savedAt) || 0
    }
    catch { /* unreadable: dropped */ }
    if (savedAt < oldest) localStorage.removeItem(name)
  }
}
