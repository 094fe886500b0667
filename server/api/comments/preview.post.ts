import { CommentBodyInputSchema } from '#shared/schemas/comments'
import { renderCommentHtml } from '../../services/markdown'

/** POST /api/comments/preview: a body rendered as a posted comment would be; stores nothing. */
export default defineEventHandler(async (event) => {
  await requireUser(event)
  const { body } = await readValidated(event, CommentBodyInputSchema)
  return { html: renderCommentHtml(body) }
})
