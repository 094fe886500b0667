-- GET /api/search?q=(cats OR dogs) pets, newest (SQLite: from the rare OR, the common tag looked up)
WITH matched AS MATERIALIZED (SELECT u.rowid AS rid, u.created_at, u.id FROM uploads u WHERE (u.rowid % 64 <> 0 OR within_budget(?)) AND u.is_private = 0 AND (u.id IN (SELECT t0.upload_id FROM upload_tags t0 WHERE (t0.rowid % 64 <> 0 OR within_budget(?)) AND t0.tag_id IN (SELECT id FROM tags WHERE slug IN (SELECT value FROM json_each(?))) AND EXISTS (SELECT 1 FROM upload_tags t1 WHERE t1.upload_id = t0.upload_id AND t1.tag_id = (SELECT id FROM tags WHERE slug = ?)) LIMIT -1)))
SELECT c.total, u.id, u.user_id, u.filename, u.description, u.upload_type, u.external_url, u.width, u.height, u.upvotes, u.downvote_count, u.is_private, u.created_at, u.edited_at, u.revision, u.rating, u.tag_ids, u.favourites, u.comments, us.username
    FROM (SELECT count(*) AS total FROM matched) c
    LEFT JOIN (SELECT u.rid FROM matched u ORDER BY u.created_at DESC, u.id DESC LIMIT 20 OFFSET 0) p ON true
    LEFT JOIN uploads u ON u.rowid = p.rid
    LEFT JOIN users us ON us.id = u.user_id
    ORDER BY u.created_at DESC, u.id DESC
-- 1: null
-- 2: null
-- 3: "[\"cats\",\"dogs\"]"
-- 4: "pets"
