-- GET /api/user/{username}/uploads, by name, one tag
WITH matched AS MATERIALIZED (SELECT u.id AS rid, u.original_name, u.created_at, u.id FROM uploads u WHERE u.is_private = 0 AND string_to_array(u.tag_ids, ',') @> ARRAY[COALESCE((SELECT tag_id FROM tag_aliases WHERE slug = $1), (SELECT id FROM tags WHERE slug = $2))] AND u.user_id = $3)
SELECT c.total, u.id, u.user_id, u.filename, u.description, u.upload_type, u.external_url, u.width, u.height, u.upvotes, u.downvote_count, u.is_private, u.created_at, u.edited_at, u.revision, u.rating, u.tag_ids, u.favourites, u.comments
    FROM (SELECT count(*) AS total FROM matched) c
    LEFT JOIN (SELECT u.rid FROM matched u ORDER BY lower(u.original_name) COLLATE "C" ASC, u.created_at DESC, u.id DESC LIMIT 20 OFFSET 0) p ON true
    LEFT JOIN uploads u ON u.id = p.rid

    ORDER BY lower(u.original_name) COLLATE "C" ASC, u.created_at DESC, u.id DESC
-- 1: "cats"
-- 2: "cats"
-- 3: "user-1"
