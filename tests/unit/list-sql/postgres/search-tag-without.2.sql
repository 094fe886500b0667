-- GET /api/search?q=cats -dogs, newest (the tag's links walked; its kept count less the pair's)
SELECT c.total, u.id, u.user_id, u.filename, u.description, u.upload_type, u.external_url, u.width, u.height, u.upvotes, u.downvote_count, u.is_private, u.created_at, u.edited_at, u.revision, u.rating, u.tag_ids, u.favourites, u.comments, us.username
    FROM (SELECT (SELECT public_uploads AS total FROM tags WHERE id = (SELECT id FROM tags WHERE slug = $1)) - (SELECT coalesce((SELECT public_uploads FROM tag_pairs
    WHERE first_tag_id = least((SELECT id FROM tags WHERE slug = $2), (SELECT id FROM tags WHERE slug = $3)) AND second_tag_id = greatest((SELECT id FROM tags WHERE slug = $4), (SELECT id FROM tags WHERE slug = $5))), 0) AS total) AS total) c
    LEFT JOIN (SELECT upload_id FROM (
    SELECT * FROM (SELECT ut.upload_created_at, ut.upload_id FROM upload_tags ut WHERE ut.tag_id = (SELECT id FROM tags WHERE slug = $6) AND ut.upload_is_private = 0 AND ut.upload_upvotes + ut.upload_downvote_count > 0 AND NOT EXISTS (SELECT 1 FROM upload_tags x
    WHERE x.upload_id = ut.upload_id AND x.tag_id = (SELECT id FROM tags WHERE slug = $7) OFFSET 0) ORDER BY ut.upload_created_at DESC, ut.upload_id DESC LIMIT 20) r
    UNION ALL
    SELECT * FROM (SELECT ut.upload_created_at, ut.upload_id FROM upload_tags ut WHERE ut.tag_id = (SELECT id FROM tags WHERE slug = $8) AND ut.upload_is_private = 0 AND ut.upload_upvotes + ut.upload_downvote_count = 0 AND NOT EXISTS (SELECT 1 FROM upload_tags x
    WHERE x.upload_id = ut.upload_id AND x.tag_id = (SELECT id FROM tags WHERE slug = $9) OFFSET 0) ORDER BY ut.upload_created_at DESC, ut.upload_id DESC LIMIT 20) r) m
    ORDER BY m.upload_created_at DESC, m.upload_id DESC LIMIT 20 OFFSET 0) p ON true
    LEFT JOIN uploads u ON u.id = p.upload_id
    LEFT JOIN users us ON us.id = u.user_id
    ORDER BY u.created_at DESC, u.id DESC
-- 1: "cats"
-- 2: "cats"
-- 3: "dogs"
-- 4: "cats"
-- 5: "dogs"
-- 6: "cats"
-- 7: "dogs"
-- 8: "cats"
-- 9: "dogs"
