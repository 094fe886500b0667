-- GET /api/items-top-voted, narrowed
SELECT u.id, u.user_id, u.filename, u.description, u.upload_type, u.external_url, u.width, u.height, u.upvotes, u.downvote_count, u.is_private, u.created_at, u.edited_at, u.revision, u.rating, u.tag_ids, u.favourites, u.comments, us.username
    FROM (SELECT u.id AS rid FROM uploads u WHERE u.is_private = 0 AND u.rating <> 'explicit' AND NOT EXISTS (SELECT 1 FROM upload_tags ht
    WHERE ht.upload_id = u.id AND ht.tag_id IN (SELECT id FROM tags WHERE slug = ANY($1))) ORDER BY u.upvotes DESC, u.downvote_count DESC, u.created_at DESC LIMIT 6) p
    JOIN uploads u ON u.id = p.rid JOIN users us ON us.id = u.user_id
    ORDER BY u.upvotes DESC, u.downvote_count DESC, u.created_at DESC
-- 1: ["gore"]
