-- GET /api/uploads/filtered, any of two tags, top, page 2 (the tags' pages united; kept counts less the pair's)
SELECT c.total, EXISTS (SELECT 1 FROM rank_copies_pending) AS copies_pending, u.id, u.user_id, u.filename, u.description, u.upload_type, u.external_url, u.width, u.height, u.upvotes, u.downvote_count, u.is_private, u.created_at, u.edited_at, u.revision, u.rating, u.tag_ids, u.favourites, u.comments, us.username
    FROM (SELECT (SELECT public_uploads FROM tags WHERE id = (SELECT id FROM tags WHERE slug = ?)) + (SELECT public_uploads FROM tags WHERE id = (SELECT id FROM tags WHERE slug = ?))
    - (SELECT coalesce((SELECT public_uploads FROM tag_pairs
    WHERE first_tag_id = min((SELECT id FROM tags WHERE slug = ?), (SELECT id FROM tags WHERE slug = ?)) AND second_tag_id = max((SELECT id FROM tags WHERE slug = ?), (SELECT id FROM tags WHERE slug = ?))), 0) AS total) AS total) c
    LEFT JOIN (SELECT u.id AS upload_id FROM uploads u
    WHERE u.id IN (SELECT upload_id FROM (SELECT upload_id FROM (
    SELECT * FROM (SELECT ut.upload_upvotes, ut.upload_downvote_count, ut.upload_created_at, ut.upload_id FROM upload_tags ut WHERE ut.tag_id = (SELECT id FROM tags WHERE slug = ?) AND ut.upload_is_private = 0 AND ut.upload_upvotes + ut.upload_downvote_count > 0 ORDER BY ut.upload_upvotes DESC, ut.upload_downvote_count DESC, ut.upload_created_at DESC, ut.upload_id DESC LIMIT ?) r
    UNION ALL
    SELECT * FROM (SELECT 0 AS upload_upvotes, 0 AS upload_downvote_count, ut.upload_created_at, ut.upload_id FROM upload_tags ut WHERE ut.tag_id = (SELECT id FROM tags WHERE slug = ?) AND ut.upload_is_private = 0 AND ut.upload_upvotes + ut.upload_downvote_count = 0 ORDER BY ut.upload_created_at DESC, ut.upload_id DESC LIMIT ?) r) m
    ORDER BY m.upload_upvotes DESC, m.upload_downvote_count DESC, m.upload_created_at DESC, m.upload_id DESC LIMIT ? OFFSET 0) a UNION SELECT upload_id FROM (SELECT upload_id FROM (
    SELECT * FROM (SELECT ut.upload_upvotes, ut.upload_downvote_count, ut.upload_created_at, ut.upload_id FROM upload_tags ut WHERE ut.tag_id = (SELECT id FROM tags WHERE slug = ?) AND ut.upload_is_private = 0 AND ut.upload_upvotes + ut.upload_downvote_count > 0 ORDER BY ut.upload_upvotes DESC, ut.upload_downvote_count DESC, ut.upload_created_at DESC, ut.upload_id DESC LIMIT ?) r
    UNION ALL
    SELECT * FROM (SELECT 0 AS upload_upvotes, 0 AS upload_downvote_count, ut.upload_created_at, ut.upload_id FROM upload_tags ut WHERE ut.tag_id = (SELECT id FROM tags WHERE slug = ?) AND ut.upload_is_private = 0 AND ut.upload_upvotes + ut.upload_downvote_count = 0 ORDER BY ut.upload_created_at DESC, ut.upload_id DESC LIMIT ?) r) m
    ORDER BY m.upload_upvotes DESC, m.upload_downvote_count DESC, m.upload_created_at DESC, m.upload_id DESC LIMIT ? OFFSET 0) b)
    ORDER BY u.upvotes DESC, u.downvote_count DESC, u.created_at DESC, u.id DESC LIMIT 20 OFFSET ?) p ON true
    LEFT JOIN uploads u ON u.id = p.upload_id
    LEFT JOIN users us ON us.id = u.user_id
    ORDER BY u.upvotes DESC, u.downvote_count DESC, u.created_at DESC, u.id DESC
-- 1: "cats"
-- 2: "dogs"
-- 3: "cats"
-- 4: "dogs"
-- 5: "cats"
-- 6: "dogs"
-- 7: "cats"
-- 8: 40
-- 9: "cats"
-- 10: 40
-- 11: 40
-- 12: "dogs"
-- 13: 40
-- 14: "dogs"
-- 15: 40
-- 16: 40
-- 17: 20
