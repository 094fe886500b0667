-- GET /api/uploads/filtered, one tag, top of the week
WITH matched AS MATERIALIZED (SELECT u.rowid AS rid, u.upvotes, u.downvote_count, u.created_at, u.id FROM (SELECT ut.upload_id FROM upload_tags ut WHERE ut.tag_id = COALESCE((SELECT tag_id FROM tag_aliases WHERE slug = ?), (SELECT id FROM tags WHERE slug = ?)) AND ut.upload_is_private = 0 AND ut.upload_upvotes + ut.upload_downvote_count > 0 AND ut.upload_created_at >= ? UNION ALL SELECT ut.upload_id FROM upload_tags ut WHERE ut.tag_id = COALESCE((SELECT tag_id FROM tag_aliases WHERE slug = ?), (SELECT id FROM tags WHERE slug = ?)) AND ut.upload_is_private = 0 AND ut.upload_upvotes + ut.upload_downvote_count = 0 AND ut.upload_created_at >= ?) m CROSS JOIN uploads u ON u.id = m.upload_id
    WHERE u.is_private = 0)
SELECT c.total, u.id, u.user_id, u.filename, u.description, u.upload_type, u.external_url, u.width, u.height, u.upvotes, u.downvote_count, u.is_private, u.created_at, u.edited_at, u.revision, u.rating, u.tag_ids, u.favourites, u.comments, us.username
    FROM (SELECT count(*) AS total FROM matched) c
    LEFT JOIN (SELECT u.rid FROM matched u ORDER BY u.upvotes DESC, u.downvote_count DESC, u.created_at DESC, u.id DESC LIMIT 20 OFFSET 0) p ON true
    LEFT JOIN uploads u ON u.rowid = p.rid
    LEFT JOIN users us ON us.id = u.user_id
    ORDER BY u.upvotes DESC, u.downvote_count DESC, u.created_at DESC, u.id DESC
-- 1: "cats"
-- 2: "cats"
-- 3: "2026-11-21T12:00:00.000Z"
-- 4: "cats"
-- 5: "cats"
-- 6: "2026-11-21T12:00:00.000Z"
