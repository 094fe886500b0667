-- GET /api/uploads, top of the week, page 1 (merged from its days)
-- run 6 times (values of the first)
SELECT u.rowid AS rid, u.upvotes, u.downvote_count, u.created_at, u.id FROM uploads u
      WHERE u.is_private = 0 AND u.created_day = ? AND u.created_at >= ? AND (u.upvotes, u.downvote_count, u.created_at, u.id) < (?, ?, ?, ?) AND (u.upvotes, u.downvote_count, u.created_at, u.id) >= (?, ?, ?, ?)
      ORDER BY u.upvotes DESC, u.downvote_count DESC, u.created_at DESC, u.id DESC LIMIT 20
-- 1: "2026-11-21"
-- 2: "2026-11-21T12:00:00.000Z"
-- 3: 9998
-- 4: 9998
-- 5: 9998
-- 6: 9998
-- 7: 9939
-- 8: 9939
-- 9: 9939
-- 10: 9939
