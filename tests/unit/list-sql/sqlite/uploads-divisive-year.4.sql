-- GET /api/uploads, divisive of the year (the ranking's first rows, then its days)
SELECT u.id, u.user_id, u.filename, u.description, u.upload_type, u.external_url, u.width, u.height, u.upvotes, u.downvote_count, u.is_private, u.created_at, u.edited_at, u.revision, u.rating, u.tag_ids, u.favourites, u.comments, us.username
    FROM (SELECT value AS rid FROM json_each(?)) p
    CROSS JOIN uploads u ON u.rowid = p.rid JOIN users us ON us.id = u.user_id
    ORDER BY u.divisive_score DESC, u.created_at DESC, u.id DESC
-- 1: [10000,9990, … 20 values …, 9810]
