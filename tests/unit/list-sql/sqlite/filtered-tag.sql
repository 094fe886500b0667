-- GET /api/uploads/filtered, one tag, top (a tag's page, its kept count)
SELECT c.total, EXISTS (SELECT 1 FROM rank_copies_pending) AS copies_pending, u.id, u.user_id, u.filename, u.description, u.upload_type, u.external_url, u.width, u.height, u.upvotes, u.downvote_count, u.is_private, u.created_at, u.edited_at, u.revision, u.rating, u.tag_ids, u.favourites, u.comments, us.username
    FROM (SELECT public_uploads AS total FROM tags WHERE id = COALESCE((SELECT tag_id FROM tag_aliases WHERE slug = ?), (SELECT id FROM tags WHERE slug = ?))) c
    LEFT JOIN (SELECT upload_id FROM (
    SELECT * FROM (SELECT ut.upload_upvotes, ut.upload_downvote_count, ut.upload_created_at, ut.upload_id FROM upload_tags ut WHERE ut.tag_id = COALESCE((SELECT tag_id FROM tag_aliases WHERE slug = ?), (SELECT id FROM tags WHERE slug = ?)) AND ut.upload_is_private = 0 AND ut.upload_upvotes + ut.upload_downvote_count > 0 ORDER BY ut.upload_upvotes DESC, ut.upload_downvote_count DESC, ut.upload_created_at DESC, ut.upload_id DESC LIMIT 20) r
    UNION ALL
    SELECT * FROM (SELECT 0 AS upload_upvotes, 0 AS upload_downvote_count, ut.upload_created_at, ut.upload_id FROM upload_tags ut WHERE ut.tag_id = COALESCE((SELECT tag_id FROM tag_aliases WHERE slug = ?), (SELECT id FROM tags WHERE slug = ?)) AND ut.upload_is_private = 0 AND ut.upload_upvotes + ut.upload_downvote_count = 0 ORDER BY ut.upload_created_at DESC, ut.upload_id DESC LIMIT 20) r) m
    ORDER BY m.upload_upvotes DESC, m.upload_downvote_count DESC, m.upload_created_at DESC, m.upload_id DESC LIMIT 20 OFFSET 0) p ON true
    LEFT JOIN uploads u ON u.id = p.upload_id
    LEFT JOIN users us ON us.id = u.user_id
    ORDER BY u.upvotes DESC, u.downvote_count DESC, u.created_at DESC, u.id DESC
-- 1: "cats"
-- 2: "cats"
-- 3: "cats"
-- 4: "cats"
-- 5: "cats"
-- 6: "cats"
