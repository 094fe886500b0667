-- GET /api/search?q=text:cats, top (a rare word: matched and counted)
WITH matched AS MATERIALIZED (SELECT u.id AS rid, u.upvotes, u.downvote_count, u.created_at, u.id FROM uploads u WHERE u.is_private = 0 AND 1 = 1)
SELECT c.total, u.id, u.user_id, u.filename, u.description, u.upload_type, u.external_url, u.width, u.height, u.upvotes, u.downvote_count, u.is_private, u.created_at, u.edited_at, u.revision, u.rating, u.tag_ids, u.favourites, u.comments, us.username
    FROM (SELECT count(*) AS total FROM matched) c
    LEFT JOIN (SELECT u.rid FROM matched u ORDER BY u.upvotes DESC, u.downvote_count DESC, u.created_at DESC, u.id DESC LIMIT 20 OFFSET 0) p ON true
    LEFT JOIN uploads u ON u.id = p.rid
    LEFT JOIN users us ON us.id = u.user_id
    ORDER BY u.upvotes DESC, u.downvote_count DESC, u.created_at DESC, u.id DESC
