-- GET /api/uploads, divisive of the year (the ranking's first rows, then its days)
SELECT u.id, u.user_id, u.filename, u.description, u.upload_type, u.external_url, u.width, u.height, u.upvotes, u.downvote_count, u.is_private, u.created_at, u.edited_at, u.revision, u.rating, u.tag_ids, u.favourites, u.comments, us.username
    FROM (WITH heads AS MATERIALIZED (SELECT d.day, u.*, 1 AS n
        FROM unnest(CAST($1 AS text[])) AS d(day) CROSS JOIN LATERAL (SELECT u.id AS rid, u.divisive_score, u.created_at, u.id FROM uploads u
      WHERE u.is_private = 0 AND u.created_day = d.day AND (d.day <> $2 OR u.created_at >= $3)
      ORDER BY u.divisive_score DESC, u.created_at DESC, u.id DESC LIMIT 1) u),
      bound AS MATERIALIZED (SELECT u.divisive_score, u.created_at, u.id FROM (SELECT u.divisive_score, u.created_at, u.id FROM heads u) u ORDER BY u.divisive_score DESC, u.created_at DESC, u.id DESC LIMIT 1 OFFSET 19),
      more AS (SELECT u.* FROM heads l CROSS JOIN bound b
        CROSS JOIN LATERAL (SELECT u.id AS rid, u.divisive_score, u.created_at, u.id FROM uploads u
      WHERE u.is_private = 0 AND u.created_day = l.day AND (l.day <> $4 OR u.created_at >= $5) AND (u.divisive_score, u.created_at, u.id) < (l.divisive_score, l.created_at, l.id) AND (u.divisive_score, u.created_at, u.id) >= (b.divisive_score, b.created_at, b.id)
      ORDER BY u.divisive_score DESC, u.created_at DESC, u.id DESC LIMIT 20) u
        WHERE l.n = 1 AND (l.divisive_score, l.created_at, l.id) > (b.divisive_score, b.created_at, b.id) UNION ALL SELECT u.* FROM heads l
        CROSS JOIN LATERAL (SELECT u.id AS rid, u.divisive_score, u.created_at, u.id FROM uploads u
      WHERE u.is_private = 0 AND u.created_day = l.day AND (l.day <> $6 OR u.created_at >= $7) AND (u.divisive_score, u.created_at, u.id) < (l.divisive_score, l.created_at, l.id)
      ORDER BY u.divisive_score DESC, u.created_at DESC, u.id DESC LIMIT 20) u
        WHERE l.n = 1 AND NOT EXISTS (SELECT 1 FROM bound))
      SELECT u.rid FROM (SELECT u.rid, u.divisive_score, u.created_at, u.id FROM heads u UNION ALL SELECT u.rid, u.divisive_score, u.created_at, u.id FROM more u) u
      ORDER BY u.divisive_score DESC, u.created_at DESC, u.id DESC LIMIT 20 OFFSET 0) p
    JOIN uploads u ON u.id = p.rid JOIN users us ON us.id = u.user_id
    ORDER BY u.divisive_score DESC, u.created_at DESC, u.id DESC
-- 1: ["2025-11-28","2025-11-29", … 367 values …, "2026-11-29"]
-- 2: "2025-11-28"
-- 3: "2025-11-28T12:00:00.000Z"
-- 4: "2025-11-28"
-- 5: "2025-11-28T12:00:00.000Z"
-- 6: "2025-11-28"
-- 7: "2025-11-28T12:00:00.000Z"
