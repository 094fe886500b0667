-- GET /api/uploads, favourites of the month, page 3 (the best days read on first)
SELECT u.id, u.user_id, u.filename, u.description, u.upload_type, u.external_url, u.width, u.height, u.upvotes, u.downvote_count, u.is_private, u.created_at, u.edited_at, u.revision, u.rating, u.tag_ids, u.favourites, u.comments, us.username
    FROM (WITH heads AS MATERIALIZED (SELECT d.day, u.*, row_number() OVER (PARTITION BY d.day ORDER BY u.favourites DESC, u.created_at DESC, u.id DESC) AS n
        FROM unnest(CAST($1 AS text[])) AS d(day) CROSS JOIN LATERAL (SELECT u.id AS rid, u.favourites, u.created_at, u.id FROM uploads u
      WHERE u.is_private = 0 AND u.created_day = d.day AND (d.day <> $2 OR u.created_at >= $3)
      ORDER BY u.favourites DESC, u.created_at DESC, u.id DESC LIMIT 2) u),
      lead AS MATERIALIZED (SELECT l.day, u.* FROM (SELECT u.* FROM heads u WHERE u.n = 2 ORDER BY u.favourites DESC, u.created_at DESC, u.id DESC LIMIT 60) l
        CROSS JOIN LATERAL (SELECT u.id AS rid, u.favourites, u.created_at, u.id FROM uploads u
      WHERE u.is_private = 0 AND u.created_day = l.day AND (l.day <> $4 OR u.created_at >= $5) AND (u.favourites, u.created_at, u.id) < (l.favourites, l.created_at, l.id)
      ORDER BY u.favourites DESC, u.created_at DESC, u.id DESC LIMIT 60) u
        LIMIT 60),
      lasts AS (SELECT u.day, u.favourites, u.created_at, u.id FROM heads u WHERE u.n = 2 AND u.day NOT IN (SELECT day FROM lead)
        UNION ALL (SELECT DISTINCT ON (u.day) u.day, u.favourites, u.created_at, u.id FROM lead u ORDER BY u.day, u.favourites, u.created_at, u.id)),
      bound AS MATERIALIZED (SELECT u.favourites, u.created_at, u.id FROM (SELECT u.favourites, u.created_at, u.id FROM heads u UNION ALL SELECT u.favourites, u.created_at, u.id FROM lead u) u ORDER BY u.favourites DESC, u.created_at DESC, u.id DESC LIMIT 1 OFFSET 59),
      more AS (SELECT u.* FROM lasts l CROSS JOIN bound b
        CROSS JOIN LATERAL (SELECT u.id AS rid, u.favourites, u.created_at, u.id FROM uploads u
      WHERE u.is_private = 0 AND u.created_day = l.day AND (l.day <> $6 OR u.created_at >= $7) AND (u.favourites, u.created_at, u.id) < (l.favourites, l.created_at, l.id) AND (u.favourites, u.created_at, u.id) >= (b.favourites, b.created_at, b.id)
      ORDER BY u.favourites DESC, u.created_at DESC, u.id DESC LIMIT 60) u
        WHERE (l.favourites, l.created_at, l.id) > (b.favourites, b.created_at, b.id) UNION ALL SELECT u.* FROM lasts l
        CROSS JOIN LATERAL (SELECT u.id AS rid, u.favourites, u.created_at, u.id FROM uploads u
      WHERE u.is_private = 0 AND u.created_day = l.day AND (l.day <> $8 OR u.created_at >= $9) AND (u.favourites, u.created_at, u.id) < (l.favourites, l.created_at, l.id)
      ORDER BY u.favourites DESC, u.created_at DESC, u.id DESC LIMIT 60) u
        WHERE NOT EXISTS (SELECT 1 FROM bound))
      SELECT u.rid FROM (SELECT u.rid, u.favourites, u.created_at, u.id FROM heads u UNION ALL SELECT u.rid, u.favourites, u.created_at, u.id FROM lead u UNION ALL SELECT u.rid, u.favourites, u.created_at, u.id FROM more u) u
      ORDER BY u.favourites DESC, u.created_at DESC, u.id DESC LIMIT 20 OFFSET 40) p
    JOIN uploads u ON u.id = p.rid JOIN users us ON us.id = u.user_id
    ORDER BY u.favourites DESC, u.created_at DESC, u.id DESC
-- 1: ["2026-10-29","2026-10-30", … 32 values …, "2026-11-29"]
-- 2: "2026-10-29"
-- 3: "2026-10-29T12:00:00.000Z"
-- 4: "2026-10-29"
-- 5: "2026-10-29T12:00:00.000Z"
-- 6: "2026-10-29"
-- 7: "2026-10-29T12:00:00.000Z"
-- 8: "2026-10-29"
-- 9: "2026-10-29T12:00:00.000Z"
