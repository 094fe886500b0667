-- GET /api/uploads, divisive of the year (the ranking's first rows, then its days)
-- run 19 times (values of the first)
SELECT u.rowid AS rid, u.divisive_score, u.created_at, u.id FROM uploads u
      WHERE u.is_private = 0 AND u.created_day = ? AND u.created_at >= ? AND (u.divisive_score, u.created_at, u.id) < (?, ?, ?) AND (u.divisive_score, u.created_at, u.id) >= (?, ?, ?)
      ORDER BY u.divisive_score DESC, u.created_at DESC, u.id DESC LIMIT 20
-- 1: "2025-11-28"
-- 2: "2025-11-28T12:00:00.000Z"
-- 3: 10000
-- 4: 10000
-- 5: 10000
-- 6: 9810
-- 7: 9810
-- 8: 9810
