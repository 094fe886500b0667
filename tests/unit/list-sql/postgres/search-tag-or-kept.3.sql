-- GET /api/search?q=(cats OR dogs) pets, top (pets' links walked, the total from the pairs less the kept triple)
SELECT c.total, EXISTS (SELECT 1 FROM rank_copies_pending) AS copies_pending, u.id, u.user_id, u.filename, u.description, u.upload_type, u.external_url, u.width, u.height, u.upvotes, u.downvote_count, u.is_private, u.created_at, u.edited_at, u.revision, u.rating, u.tag_ids, u.favourites, u.comments, us.username
    FROM (SELECT (SELECT coalesce((SELECT public_uploads FROM tag_pairs
    WHERE first_tag_id = least((SELECT id FROM tags WHERE slug = $1), (SELECT id FROM tags WHERE slug = $2)) AND second_tag_id = greatest((SELECT id FROM tags WHERE slug = $3), (SELECT id FROM tags WHERE slug = $4))), 0) AS total) + (SELECT coalesce((SELECT public_uploads FROM tag_pairs
    WHERE first_tag_id = least((SELECT id FROM tags WHERE slug = $5), (SELECT id FROM tags WHERE slug = $6)) AND second_tag_id = greatest((SELECT id FROM tags WHERE slug = $7), (SELECT id FROM tags WHERE slug = $8))), 0) AS total) - (SELECT public_uploads FROM tag_triples
    WHERE first_tag_id IN (SELECT id FROM tags WHERE slug IN ($9, $10, $11)) AND second_tag_id IN (SELECT id FROM tags WHERE slug IN ($12, $13, $14)) AND third_tag_id IN (SELECT id FROM tags WHERE slug IN ($15, $16, $17))) AS total) c
    LEFT JOIN (SELECT upload_id FROM (
    SELECT * FROM (SELECT ut.upload_upvotes, ut.upload_downvote_count, ut.upload_created_at, ut.upload_id FROM upload_tags ut WHERE ut.tag_id = (SELECT id FROM tags WHERE slug = $18) AND ut.upload_is_private = 0 AND ut.upload_upvotes + ut.upload_downvote_count > 0 AND EXISTS (SELECT 1 FROM upload_tags x WHERE x.upload_id = ut.upload_id AND x.tag_id IN ((SELECT id FROM tags WHERE slug = $19), (SELECT id FROM tags WHERE slug = $20)) OFFSET 0) ORDER BY ut.upload_upvotes DESC, ut.upload_downvote_count DESC, ut.upload_created_at DESC, ut.upload_id DESC LIMIT 20) r
    UNION ALL
    SELECT * FROM (SELECT 0 AS upload_upvotes, 0 AS upload_downvote_count, ut.upload_created_at, ut.upload_id FROM upload_tags ut WHERE ut.tag_id = (SELECT id FROM tags WHERE slug = $21) AND ut.upload_is_private = 0 AND ut.upload_upvotes + ut.upload_downvote_count = 0 AND EXISTS (SELECT 1 FROM upload_tags x WHERE x.upload_id = ut.upload_id AND x.tag_id IN ((SELECT id FROM tags WHERE slug = $22), (SELECT id FROM tags WHERE slug = $23)) OFFSET 0) ORDER BY ut.upload_created_at DESC, ut.upload_id DESC LIMIT 20) r) m
    ORDER BY m.upload_upvotes DESC, m.upload_downvote_count DESC, m.upload_created_at DESC, m.upload_id DESC LIMIT 20 OFFSET 0) p ON true
    LEFT JOIN uploads u ON u.id = p.upload_id
    LEFT JOIN users us ON us.id = u.user_id
    ORDER BY u.upvotes DESC, u.downvote_count DESC, u.created_at DESC, u.id DESC
-- 1: "pets"
-- 2: "cats"
-- 3: "pets"
-- 4: "cats"
-- 5: "pets"
-- 6: "dogs"
-- 7: "pets"
-- 8: "dogs"
-- 9: "pets"
-- 10: "cats"
-- 11: "dogs"
-- 12: "pets"
-- 13: "cats"
-- 14: "dogs"
-- 15: "pets"
-- 16: "cats"
-- 17: "dogs"
-- 18: "pets"
-- 19: "cats"
-- 20: "dogs"
-- 21: "pets"
-- 22: "cats"
-- 23: "dogs"
