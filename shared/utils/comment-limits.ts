/**
 * A comment's limits. Apart from the schemas, so the comments on an upload page
 * do not bring valibot and every comment schema into its JavaScript
 * (docs/performance.md, "First-load JavaScript").
 */
export const MAX_COMMENT_LENGTH = 2000
export const COMMENT_SORTS = ['new', 'old', 'top'] as const
/** How long after posting the author may still edit a comment. */
export const COMMENT_EDIT_WINDOW_MS = 24 * 60 * 60 * 1000
