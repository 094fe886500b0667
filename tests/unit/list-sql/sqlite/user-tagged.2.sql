-- GET /api/user/{username}/uploads, by name, one tag
WITH matched AS MATERIALIZED (SELECT u.rowid AS rid, u.original_name, u.created_at, u.id FROM (SELECT DISTINCT ut.upload_id FROM upload_tags ut WHERE ut.tag_id IN (SELECT id FROM tags WHERE slug IN (SELECT value FROM json_each(?)))) m CROSS JOIN uploads u ON u.id = m.upload_id WHERE u.is_private = 0 AND u.user_id = ?)
SELECT c.total, u.id, u.user_id, u.filename, u.description, u.upload_type, u.external_url, u.width, u.height, u.upvotes, u.downvote_count, u.is_private, u.created_at, u.edited_at, u.revision, u.rating, u.tag_ids, u.favourites, u.comments
    FROM (SELECT count(*) AS total FROM matched) c
    LEFT JOIN (SELECT u.rid FROM matched u ORDER BY lower(u.original_name) ASC, u.created_at DESC, u.id DESC LIMIT 20 OFFSET 0) p ON true
    LEFT JOIN uploads u ON u.rowid = p.rid

    ORDER BY lower(u.original_name) ASC, u.created_at DESC, u.id DESC
-- 1: "[\"cats\"]"
-- 2: "user-1"
