-- GET /api/uploads, top of the week, a page past the merge
-- replanned: PostgreSQL plans it for its values on every run
SELECT u.id, u.user_id, u.filename, u.description, u.upload_type, u.external_url, u.width, u.height, u.upvotes, u.downvote_count, u.is_private, u.created_at, u.edited_at, u.revision, u.rating, u.tag_ids, u.favourites, u.comments, us.username
    FROM (SELECT u.id AS rid FROM uploads u WHERE u.is_private = 0 AND u.created_at >= $1 ORDER BY u.upvotes DESC, u.downvote_count DESC, u.created_at DESC, u.id DESC LIMIT 20 OFFSET $2) p
    JOIN uploads u ON u.id = p.rid JOIN users us ON us.id = u.user_id
    ORDER BY u.upvotes DESC, u.downvote_count DESC, u.created_at DESC, u.id DESC
-- 1: "2026-11-21T12:00:00.000Z"
-- 2: 380
