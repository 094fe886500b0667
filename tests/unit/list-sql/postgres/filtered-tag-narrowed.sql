-- GET /api/uploads/filtered, one tag, newest, narrowed (counted link by link)
SELECT c.total, u.id, u.user_id, u.filename, u.description, u.upload_type, u.external_url, u.width, u.height, u.upvotes, u.downvote_count, u.is_private, u.created_at, u.edited_at, u.revision, u.rating, u.tag_ids, u.favourites, u.comments, us.username
    FROM (SELECT (SELECT count(*) FROM upload_tags ut WHERE ut.tag_id = COALESCE((SELECT tag_id FROM tag_aliases WHERE slug = $1), (SELECT id FROM tags WHERE slug = $2)) AND ut.upload_is_private = 0 AND ut.upload_upvotes + ut.upload_downvote_count > 0 AND NOT EXISTS (SELECT 1 FROM votes v WHERE v.user_id = $3 AND v.upload_id = ut.upload_id) AND (SELECT r.rating FROM uploads r WHERE r.id = ut.upload_id) = 'safe' AND NOT EXISTS (SELECT 1 FROM upload_tags ht
    WHERE ht.upload_id = ut.upload_id AND ht.tag_id IN (SELECT id FROM tags WHERE slug = ANY($4)))) + (SELECT count(*) FROM upload_tags ut WHERE ut.tag_id = COALESCE((SELECT tag_id FROM tag_aliases WHERE slug = $5), (SELECT id FROM tags WHERE slug = $6)) AND ut.upload_is_private = 0 AND ut.upload_upvotes + ut.upload_downvote_count = 0 AND NOT EXISTS (SELECT 1 FROM votes v WHERE v.user_id = $7 AND v.upload_id = ut.upload_id) AND (SELECT r.rating FROM uploads r WHERE r.id = ut.upload_id) = 'safe' AND NOT EXISTS (SELECT 1 FROM upload_tags ht
    WHERE ht.upload_id = ut.upload_id AND ht.tag_id IN (SELECT id FROM tags WHERE slug = ANY($8)))) AS total) c
    LEFT JOIN (SELECT upload_id FROM (
    SELECT * FROM (SELECT ut.upload_created_at, ut.upload_id FROM upload_tags ut WHERE ut.tag_id = COALESCE((SELECT tag_id FROM tag_aliases WHERE slug = $9), (SELECT id FROM tags WHERE slug = $10)) AND ut.upload_is_private = 0 AND ut.upload_upvotes + ut.upload_downvote_count > 0 AND NOT EXISTS (SELECT 1 FROM votes v WHERE v.user_id = $11 AND v.upload_id = ut.upload_id) AND (SELECT r.rating FROM uploads r WHERE r.id = ut.upload_id) = 'safe' AND NOT EXISTS (SELECT 1 FROM upload_tags ht
    WHERE ht.upload_id = ut.upload_id AND ht.tag_id IN (SELECT id FROM tags WHERE slug = ANY($12))) ORDER BY ut.upload_created_at DESC, ut.upload_id DESC LIMIT 40) r
    UNION ALL
    SELECT * FROM (SELECT ut.upload_created_at, ut.upload_id FROM upload_tags ut WHERE ut.tag_id = COALESCE((SELECT tag_id FROM tag_aliases WHERE slug = $13), (SELECT id FROM tags WHERE slug = $14)) AND ut.upload_is_private = 0 AND ut.upload_upvotes + ut.upload_downvote_count = 0 AND NOT EXISTS (SELECT 1 FROM votes v WHERE v.user_id = $15 AND v.upload_id = ut.upload_id) AND (SELECT r.rating FROM uploads r WHERE r.id = ut.upload_id) = 'safe' AND NOT EXISTS (SELECT 1 FROM upload_tags ht
    WHERE ht.upload_id = ut.upload_id AND ht.tag_id IN (SELECT id FROM tags WHERE slug = ANY($16))) ORDER BY ut.upload_created_at DESC, ut.upload_id DESC LIMIT 40) r) m
    ORDER BY m.upload_created_at DESC, m.upload_id DESC LIMIT 20 OFFSET 20) p ON true
    LEFT JOIN uploads u ON u.id = p.upload_id
    LEFT JOIN users us ON us.id = u.user_id
    ORDER BY u.created_at DESC, u.id DESC
-- 1: "cats"
-- 2: "cats"
-- 3: "user-2"
-- 4: ["gore"]
-- 5: "cats"
-- 6: "cats"
-- 7: "user-2"
-- 8: ["gore"]
-- 9: "cats"
-- 10: "cats"
-- 11: "user-2"
-- 12: ["gore"]
-- 13: "cats"
-- 14: "cats"
-- 15: "user-2"
-- 16: ["gore"]
