-- GET /api/uploads, best of the month, page 2 (days read on to a bound)
SELECT u.id, u.user_id, u.filename, u.description, u.upload_type, u.external_url, u.width, u.height, u.upvotes, u.downvote_count, u.is_private, u.created_at, u.edited_at, u.revision, u.rating, u.tag_ids, u.favourites, u.comments, us.username
    FROM (SELECT value AS rid FROM json_each(?)) p
    CROSS JOIN uploads u ON u.rowid = p.rid JOIN users us ON us.id = u.user_id
    ORDER BY u.best_score DESC, u.created_at DESC, u.id DESC
-- 1: [9900,9899, … 20 values …, 9809]
