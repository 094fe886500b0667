-- GET /api/vote/next, a visitor
SELECT u.id, u.user_id, u.filename, u.description, u.upload_type, u.external_url, u.width, u.height, u.upvotes, u.downvote_count, u.is_private, u.created_at, u.edited_at, u.revision, u.rating, u.tag_ids, u.favourites, u.comments, us.username
    FROM uploads u JOIN users us ON us.id = u.user_id
    WHERE u.is_private = 0 AND NOT EXISTS (SELECT 1 FROM anonymous_votes a WHERE a.upload_id = u.id AND a.ip_hash = $1)
      AND NOT EXISTS (SELECT 1 FROM anonymous_votes a WHERE a.upload_id = u.id AND a.fingerprint = $2) AND u.rating <> 'explicit'
    ORDER BY u.created_at DESC, u.id DESC LIMIT 1
-- 1: "ip-hash"
-- 2: "fingerprint"
