-- GET /api/user/{username}/uploads, by date (the account's kept count)
SELECT u.id, u.user_id, u.filename, u.description, u.upload_type, u.external_url, u.width, u.height, u.upvotes, u.downvote_count, u.is_private, u.created_at, u.edited_at, u.revision, u.rating, u.tag_ids, u.favourites, u.comments
        FROM (SELECT u.rowid AS rid FROM uploads u WHERE u.user_id = ? AND u.is_private = 0
          ORDER BY u.created_at DESC, u.id DESC LIMIT 20 OFFSET 0) p
        CROSS JOIN uploads u ON u.rowid = p.rid ORDER BY u.created_at DESC, u.id DESC
-- 1: "user-1"
