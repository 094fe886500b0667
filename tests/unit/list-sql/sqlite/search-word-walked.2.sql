-- GET /api/search?q=text:cats, newest (a common word: its kept count, the list walked)
SELECT c.total, u.id, u.user_id, u.filename, u.description, u.upload_type, u.external_url, u.width, u.height, u.upvotes, u.downvote_count, u.is_private, u.created_at, u.edited_at, u.revision, u.rating, u.tag_ids, u.favourites, u.comments, us.username
    FROM (SELECT coalesce(max(w.public_uploads), 0) AS total FROM search_words w WHERE w.word = (SELECT max(token) FROM search_word_tokens WHERE input = ?)) c
    LEFT JOIN (SELECT u.rowid AS rid FROM uploads u WHERE (u.rowid % 64 <> 0 OR within_budget(?)) AND u.is_private = 0 AND EXISTS (SELECT 1 FROM search_word_tokens WHERE input = u.description AND token = (SELECT max(token) FROM search_word_tokens WHERE input = ?))
        ORDER BY u.created_at DESC, u.id DESC LIMIT 20 OFFSET 0) p ON true
    LEFT JOIN uploads u ON u.rowid = p.rid
    LEFT JOIN users us ON us.id = u.user_id
    ORDER BY u.created_at DESC, u.id DESC
-- 1: "cats"
-- 2: null
-- 3: "cats"
