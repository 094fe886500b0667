-- GET /api/uploads, top of the week, page 1 (merged from its days)
-- run 9 times (values of the first)
SELECT u.rowid AS rid, u.upvotes, u.downvote_count, u.created_at, u.id FROM uploads u
      WHERE u.is_private = 0 AND u.created_day = ? AND u.created_at >= ?
      ORDER BY u.upvotes DESC, u.downvote_count DESC, u.created_at DESC, u.id DESC LIMIT 3
-- 1: "2026-11-21"
-- 2: "2026-11-21T12:00:00.000Z"
