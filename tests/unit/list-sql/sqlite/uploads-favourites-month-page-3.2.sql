-- GET /api/uploads, favourites of the month, page 3 (the best days read on first)
-- run 29 times (values of the first)
SELECT u.rowid AS rid, u.favourites, u.created_at, u.id FROM uploads u
      WHERE u.is_private = 0 AND u.created_day = ? AND u.created_at >= ? AND (u.favourites, u.created_at, u.id) < (?, ?, ?) AND (u.favourites, u.created_at, u.id) >= (?, ?, ?)
      ORDER BY u.favourites DESC, u.created_at DESC, u.id DESC LIMIT 60
-- 1: "2026-10-29"
-- 2: "2026-10-29T12:00:00.000Z"
-- 3: 9999
-- 4: 9999
-- 5: 9999
-- 6: 9709
-- 7: 9709
-- 8: 9709
