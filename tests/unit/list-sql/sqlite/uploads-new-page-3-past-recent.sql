-- GET /api/uploads, newest, page 3 past the recent days (PostgreSQL: from the months)
SELECT u.id, u.user_id, u.filename, u.description, u.upload_type, u.external_url, u.width, u.height, u.upvotes, u.downvote_count, u.is_private, u.created_at, u.edited_at, u.revision, u.rating, u.tag_ids, u.favourites, u.comments, us.username
    FROM (SELECT u.rowid AS rid FROM uploads u WHERE u.is_private = 0 ORDER BY u.created_at DESC, u.id DESC LIMIT 20 OFFSET 40) p
    CROSS JOIN uploads u ON u.rowid = p.rid JOIN users us ON us.id = u.user_id
    ORDER BY u.created_at DESC, u.id DESC
