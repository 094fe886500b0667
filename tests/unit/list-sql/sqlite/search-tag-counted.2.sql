-- GET /api/search?q=votes:>=10 cats, top (the tag's links walked and counted)
SELECT c.total, EXISTS (SELECT 1 FROM rank_copies_pending) AS copies_pending, u.id, u.user_id, u.filename, u.description, u.upload_type, u.external_url, u.width, u.height, u.upvotes, u.downvote_count, u.is_private, u.created_at, u.edited_at, u.revision, u.rating, u.tag_ids, u.favourites, u.comments, us.username
    FROM (SELECT (SELECT coalesce(sum(v.links), 0) FROM tag_vote_counts v
    WHERE v.tag_id = (SELECT id FROM tags WHERE slug = ?) AND ((v.upvotes + v.downvotes) >= ?)) AS total) c
    LEFT JOIN (SELECT ut.upload_id FROM upload_tags ut WHERE ut.tag_id = (SELECT id FROM tags WHERE slug = ?) AND ut.upload_is_private = 0 AND ut.upload_upvotes + ut.upload_downvote_count > 0 AND ((ut.upload_upvotes + ut.upload_downvote_count) >= ?)
    ORDER BY ut.upload_upvotes DESC, ut.upload_downvote_count DESC, ut.upload_created_at DESC, ut.upload_id DESC LIMIT 20 OFFSET 0) p ON true
    LEFT JOIN uploads u ON u.id = p.upload_id
    LEFT JOIN users us ON us.id = u.user_id
    ORDER BY u.upvotes DESC, u.downvote_count DESC, u.created_at DESC, u.id DESC
-- 1: "cats"
-- 2: 10
-- 3: "cats"
-- 4: 10
