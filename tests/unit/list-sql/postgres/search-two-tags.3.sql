-- GET /api/search?q=cats dogs, newest (the filtered list's pair)
WITH named AS MATERIALIZED (SELECT COALESCE((SELECT tag_id FROM tag_aliases WHERE slug = $1), (SELECT id FROM tags WHERE slug = $2)) AS a, COALESCE((SELECT tag_id FROM tag_aliases WHERE slug = $3), (SELECT id FROM tags WHERE slug = $4)) AS b),
    counted AS MATERIALIZED (SELECT CASE WHEN n.a = n.b THEN (SELECT public_uploads AS total FROM tags WHERE id = n.a) ELSE (SELECT coalesce((SELECT public_uploads FROM tag_pairs
    WHERE first_tag_id = least(n.a, n.b) AND second_tag_id = greatest(n.a, n.b)), 0) AS total) END AS total FROM named n)
SELECT c.total, EXISTS (SELECT 1 FROM rank_copies_pending) AS copies_pending, u.id, u.user_id, u.filename, u.description, u.upload_type, u.external_url, u.width, u.height, u.upvotes, u.downvote_count, u.is_private, u.created_at, u.edited_at, u.revision, u.rating, u.tag_ids, u.favourites, u.comments, us.username
    FROM (SELECT total FROM counted) c
    LEFT JOIN (SELECT upload_id FROM (
    SELECT * FROM (SELECT ut.upload_created_at, ut.upload_id FROM upload_tags ut JOIN upload_tags o
    ON o.upload_created_at = ut.upload_created_at AND o.upload_id = ut.upload_id
    WHERE ut.tag_id = (SELECT a FROM named) AND ut.upload_is_private = 0 AND o.tag_id = (SELECT b FROM named) AND o.upload_is_private = 0 AND ut.upload_upvotes + ut.upload_downvote_count > 0 AND o.upload_upvotes + o.upload_downvote_count > 0 ORDER BY ut.upload_created_at DESC, ut.upload_id DESC LIMIT 20) r
    UNION ALL
    SELECT * FROM (SELECT ut.upload_created_at, ut.upload_id FROM upload_tags ut JOIN upload_tags o
    ON o.upload_created_at = ut.upload_created_at AND o.upload_id = ut.upload_id
    WHERE ut.tag_id = (SELECT a FROM named) AND ut.upload_is_private = 0 AND o.tag_id = (SELECT b FROM named) AND o.upload_is_private = 0 AND ut.upload_upvotes + ut.upload_downvote_count = 0 AND o.upload_upvotes + o.upload_downvote_count = 0 ORDER BY ut.upload_created_at DESC, ut.upload_id DESC LIMIT 20) r) m
    ORDER BY m.upload_created_at DESC, m.upload_id DESC LIMIT 20 OFFSET 0) p ON true
    LEFT JOIN uploads u ON u.id = p.upload_id
    LEFT JOIN users us ON us.id = u.user_id
    ORDER BY u.created_at DESC, u.id DESC
-- 1: "dogs"
-- 2: "dogs"
-- 3: "cats"
-- 4: "cats"
