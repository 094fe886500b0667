-- GET /api/uploads, top of the week, page 1 (merged from its days)
SELECT u.id, u.user_id, u.filename, u.description, u.upload_type, u.external_url, u.width, u.height, u.upvotes, u.downvote_count, u.is_private, u.created_at, u.edited_at, u.revision, u.rating, u.tag_ids, u.favourites, u.comments, us.username
    FROM (SELECT u.rid FROM (SELECT d.day FROM unnest(CAST($1 AS text[])) AS d(day) LIMIT 9) d CROSS JOIN LATERAL (SELECT u.id AS rid, u.upvotes, u.downvote_count, u.created_at, u.id FROM uploads u
      WHERE u.is_private = 0 AND u.created_day = d.day AND (d.day <> $2 OR u.created_at >= $3)
      ORDER BY u.upvotes DESC, u.downvote_count DESC, u.created_at DESC, u.id DESC LIMIT 20) u
        ORDER BY u.upvotes DESC, u.downvote_count DESC, u.created_at DESC, u.id DESC LIMIT 20 OFFSET 0) p
    JOIN uploads u ON u.id = p.rid JOIN users us ON us.id = u.user_id
    ORDER BY u.upvotes DESC, u.downvote_count DESC, u.created_at DESC, u.id DESC
-- 1: ["2026-11-21","2026-11-22", … 9 values …, "2026-11-29"]
-- 2: "2026-11-21"
-- 3: "2026-11-21T12:00:00.000Z"
