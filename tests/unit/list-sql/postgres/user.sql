-- GET /api/user/{username}/uploads, by date (the account's kept count)
SELECT us.id AS owner_id, us.username AS owner_username, us.created_at AS owner_created_at, us.public_uploads AS owner_public_uploads, u.id, u.user_id, u.filename, u.description, u.upload_type, u.external_url, u.width, u.height, u.upvotes, u.downvote_count, u.is_private, u.created_at, u.edited_at, u.revision, u.rating, u.tag_ids, u.favourites, u.comments
    FROM users us
    LEFT JOIN (SELECT u.id AS rid FROM uploads u WHERE u.user_id = (SELECT id FROM users WHERE lower(username) = lower($1)) AND u.is_private = 0
          ORDER BY u.created_at DESC, u.id DESC LIMIT 20 OFFSET 0) p ON true
    LEFT JOIN uploads u ON u.id = p.rid
    WHERE lower(us.username) = lower($2) ORDER BY u.created_at DESC, u.id DESC
-- 1: "alice"
-- 2: "alice"
