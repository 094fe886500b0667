-- GET /api/uploads, favourites of the month, page 3 (the best days read on first)
SELECT u.id, u.user_id, u.filename, u.description, u.upload_type, u.external_url, u.width, u.height, u.upvotes, u.downvote_count, u.is_private, u.created_at, u.edited_at, u.revision, u.rating, u.tag_ids, u.favourites, u.comments, us.username
    FROM (SELECT value AS rid FROM json_each(?)) p
    CROSS JOIN uploads u ON u.rowid = p.rid JOIN users us ON us.id = u.user_id
    ORDER BY u.favourites DESC, u.created_at DESC, u.id DESC
-- 1: [9800,9799, … 20 values …, 9709]
