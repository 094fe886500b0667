-- GET /api/vote/next, an account with a hidden tag
SELECT u.id, u.user_id, u.filename, u.description, u.upload_type, u.external_url, u.width, u.height, u.upvotes, u.downvote_count, u.is_private, u.created_at, u.edited_at, u.revision, u.rating, u.tag_ids, u.favourites, u.comments, us.username
    FROM uploads u JOIN users us ON us.id = u.user_id
    WHERE u.is_private = 0 AND NOT EXISTS (SELECT 1 FROM votes v WHERE v.user_id = $1 AND v.upload_id = u.id) AND NOT EXISTS (SELECT 1 FROM upload_tags ht
    WHERE ht.upload_id = u.id AND ht.tag_id IN (SELECT id FROM tags WHERE slug = ANY($2)))
    ORDER BY u.created_at DESC, u.id DESC LIMIT 1
-- 1: "user-2"
-- 2: ["gore"]
