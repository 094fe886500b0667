-- GET /api/uploads, divisive of the year (the ranking's first rows, then its days)
SELECT u.id, u.user_id, u.filename, u.description, u.upload_type, u.external_url, u.width, u.height, u.upvotes, u.downvote_count, u.is_private, u.created_at, u.edited_at, u.revision, u.rating, u.tag_ids, u.favourites, u.comments, us.username
    FROM (SELECT u.rid FROM (SELECT u.id AS rid, u.divisive_score, u.created_at, u.id FROM uploads u
      WHERE u.is_private = 0 ORDER BY u.divisive_score DESC, u.created_at DESC, u.id DESC LIMIT 1000) u
      WHERE u.created_at >= $1 ORDER BY u.divisive_score DESC, u.created_at DESC, u.id DESC LIMIT 20 OFFSET 0) p
    JOIN uploads u ON u.id = p.rid JOIN users us ON us.id = u.user_id
    ORDER BY u.divisive_score DESC, u.created_at DESC, u.id DESC
-- 1: "2025-11-28T12:00:00.000Z"
