-- GET /api/user/{username}/uploads, by votes, narrowed
SELECT c.total, u.id, u.user_id, u.filename, u.description, u.upload_type, u.external_url, u.width, u.height, u.upvotes, u.downvote_count, u.is_private, u.created_at, u.edited_at, u.revision, u.rating, u.tag_ids, u.favourites, u.comments
    FROM (SELECT count(*) AS total FROM uploads u WHERE u.user_id = $1 AND u.is_private = 0 AND u.rating = 'safe' AND NOT EXISTS (SELECT 1 FROM upload_tags ht
    WHERE ht.upload_id = u.id AND ht.tag_id IN (SELECT id FROM tags WHERE slug = ANY($2)))) c
    LEFT JOIN (SELECT u.id AS rid FROM uploads u WHERE u.user_id = $3 AND u.is_private = 0 AND u.rating = 'safe' AND NOT EXISTS (SELECT 1 FROM upload_tags ht
    WHERE ht.upload_id = u.id AND ht.tag_id IN (SELECT id FROM tags WHERE slug = ANY($4))) ORDER BY u.upvotes DESC, u.created_at DESC, u.id DESC LIMIT 20 OFFSET 20) p ON true
    LEFT JOIN uploads u ON u.id = p.rid

    ORDER BY u.upvotes DESC, u.created_at DESC, u.id DESC
-- 1: "user-1"
-- 2: ["gore"]
-- 3: "user-1"
-- 4: ["gore"]
