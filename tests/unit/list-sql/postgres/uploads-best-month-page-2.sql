-- GET /api/uploads, best of the month, page 2 (days read on to a bound)
SELECT u.id, u.user_id, u.filename, u.description, u.upload_type, u.external_url, u.width, u.height, u.upvotes, u.downvote_count, u.is_private, u.created_at, u.edited_at, u.revision, u.rating, u.tag_ids, u.favourites, u.comments, us.username
    FROM (WITH heads AS MATERIALIZED (SELECT d.day, u.*, row_number() OVER (PARTITION BY d.day ORDER BY u.best_score DESC, u.created_at DESC, u.id DESC) AS n
        FROM unnest(CAST($1 AS text[])) AS d(day) CROSS JOIN LATERAL (SELECT u.id AS rid, u.best_score, u.created_at, u.id FROM uploads u
      WHERE u.is_private = 0 AND u.created_day = d.day AND (d.day <> $2 OR u.created_at >= $3)
      ORDER BY u.best_score DESC, u.created_at DESC, u.id DESC LIMIT 2) u),
      bound AS MATERIALIZED (SELECT u.best_score, u.created_at, u.id FROM (SELECT u.best_score, u.created_at, u.id FROM heads u) u ORDER BY u.best_score DESC, u.created_at DESC, u.id DESC LIMIT 1 OFFSET 39),
      more AS (SELECT u.* FROM heads l CROSS JOIN bound b
        CROSS JOIN LATERAL (SELECT u.id AS rid, u.best_score, u.created_at, u.id FROM uploads u
      WHERE u.is_private = 0 AND u.created_day = l.day AND (l.day <> $4 OR u.created_at >= $5) AND (u.best_score, u.created_at, u.id) < (l.best_score, l.created_at, l.id) AND (u.best_score, u.created_at, u.id) >= (b.best_score, b.created_at, b.id)
      ORDER BY u.best_score DESC, u.created_at DESC, u.id DESC LIMIT 40) u
        WHERE l.n = 2 AND (l.best_score, l.created_at, l.id) > (b.best_score, b.created_at, b.id) UNION ALL SELECT u.* FROM heads l
        CROSS JOIN LATERAL (SELECT u.id AS rid, u.best_score, u.created_at, u.id FROM uploads u
      WHERE u.is_private = 0 AND u.created_day = l.day AND (l.day <> $6 OR u.created_at >= $7) AND (u.best_score, u.created_at, u.id) < (l.best_score, l.created_at, l.id)
      ORDER BY u.best_score DESC, u.created_at DESC, u.id DESC LIMIT 40) u
        WHERE l.n = 2 AND NOT EXISTS (SELECT 1 FROM bound))
      SELECT u.rid FROM (SELECT u.rid, u.best_score, u.created_at, u.id FROM heads u UNION ALL SELECT u.rid, u.best_score, u.created_at, u.id FROM more u) u
      ORDER BY u.best_score DESC, u.created_at DESC, u.id DESC LIMIT 20 OFFSET 20) p
    JOIN uploads u ON u.id = p.rid JOIN users us ON us.id = u.user_id
    ORDER BY u.best_score DESC, u.created_at DESC, u.id DESC
-- 1: ["2026-10-29","2026-10-30", … 32 values …, "2026-11-29"]
-- 2: "2026-10-29"
-- 3: "2026-10-29T12:00:00.000Z"
-- 4: "2026-10-29"
-- 5: "2026-10-29T12:00:00.000Z"
-- 6: "2026-10-29"
-- 7: "2026-10-29T12:00:00.000Z"
