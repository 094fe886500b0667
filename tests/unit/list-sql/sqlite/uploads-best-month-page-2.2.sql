-- GET /api/uploads, best of the month, page 2 (days read on to a bound)
-- run 19 times (values of the first)
SELECT u.rowid AS rid, u.best_score, u.created_at, u.id FROM uploads u
      WHERE u.is_private = 0 AND u.created_day = ? AND u.created_at >= ? AND (u.best_score, u.created_at, u.id) < (?, ?, ?) AND (u.best_score, u.created_at, u.id) >= (?, ?, ?)
      ORDER BY u.best_score DESC, u.created_at DESC, u.id DESC LIMIT 40
-- 1: "2026-10-29"
-- 2: "2026-10-29T12:00:00.000Z"
-- 3: 9999
-- 4: 9999
-- 5: 9999
-- 6: 9809
-- 7: 9809
-- 8: 9809
