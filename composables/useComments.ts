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
