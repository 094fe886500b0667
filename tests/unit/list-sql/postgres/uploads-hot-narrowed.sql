-- GET /api/uploads, hot, one rating, a hidden tag, unvoted
SELECT u.id, u.user_id, u.filename, u.description, u.upload_type, u.external_url, u.width, u.height, u.upvotes, u.downvote_count, u.is_private, u.created_at, u.edited_at, u.revision, u.rating, u.tag_ids, u.favourites, u.comments, us.username
    FROM (SELECT u.id AS rid FROM uploads u WHERE u.is_private = 0 AND NOT EXISTS (SELECT 1 FROM votes v WHERE v.user_id = $1 AND v.upload_id = u.id) AND u.rating = 'safe' AND NOT EXISTS (SELECT 1 FROM upload_tags ht
    WHERE ht.upload_id = u.id AND ht.tag_id IN (SELECT id FROM tags WHERE slug = ANY($2))) ORDER BY u.hot_score DESC, u.created_at DESC, u.id DESC LIMIT 20 OFFSET 20) p
    JOIN uploads u ON u.id = p.rid JOIN users us ON us.id = u.user_id
    ORDER BY u.hot_score DESC, u.created_at DESC, u.id DESC
-- 1: "user-2"
-- 2: ["gore"]
