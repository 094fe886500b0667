-- GET /api/uploads/filtered, any of two tags, best, narrowed (matched)
WITH matched AS MATERIALIZED (SELECT u.id AS rid, u.best_score, u.created_at, u.id FROM uploads u WHERE u.is_private = 0 AND string_to_array(u.tag_ids, ',') && ARRAY(SELECT tag_id FROM (SELECT slug, tag_id FROM tag_aliases WHERE slug = ANY($1)
    UNION ALL SELECT slug, id FROM tags WHERE slug = ANY($2) AND slug NOT IN (SELECT slug FROM tag_aliases)) n) AND NOT EXISTS (SELECT 1 FROM votes v WHERE v.user_id = $3 AND v.upload_id = u.id) AND u.rating = 'safe' AND NOT EXISTS (SELECT 1 FROM upload_tags ht
    WHERE ht.upload_id = u.id AND ht.tag_id IN (SELECT id FROM tags WHERE slug = ANY($4))))
SELECT c.total, u.id, u.user_id, u.filename, u.description, u.upload_type, u.external_url, u.width, u.height, u.upvotes, u.downvote_count, u.is_private, u.created_at, u.edited_at, u.revision, u.rating, u.tag_ids, u.favourites, u.comments, us.username
    FROM (SELECT count(*) AS total FROM matched) c
    LEFT JOIN (SELECT u.rid FROM matched u ORDER BY u.best_score DESC, u.created_at DESC, u.id DESC LIMIT 20 OFFSET 0) p ON true
    LEFT JOIN uploads u ON u.id = p.rid
    LEFT JOIN users us ON us.id = u.user_id
    ORDER BY u.best_score DESC, u.created_at DESC, u.id DESC
-- 1: ["cats","dogs"]
-- 2: ["cats","dogs"]
-- 3: "user-2"
-- 4: ["gore"]
