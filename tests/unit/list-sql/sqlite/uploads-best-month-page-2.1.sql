-- GET /api/uploads, best of the month, page 2 (days read on to a bound)
-- run 32 times (values of the first)
SELECT u.rowid AS rid, u.best_score, u.created_at, u.id FROM uploads u
      WHERE u.is_private = 0 AND u.created_day = ? AND u.created_at >= ?
      ORDER BY u.best_score DESC, u.created_at DESC, u.id DESC LIMIT 2
-- 1: "2026-10-29"
-- 2: "2026-10-29T12:00:00.000Z"
