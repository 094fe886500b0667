-- GET /api/uploads, newest, page 3 past the recent days (PostgreSQL: from the months)
SELECT u.id, u.user_id, u.filename, u.description, u.upload_type, u.external_url, u.width, u.height, u.upvotes, u.downvote_count, u.is_private, u.created_at, u.edited_at, u.revision, u.rating, u.tag_ids, u.favourites, u.comments, us.username
    FROM (WITH start AS MATERIALIZED (SELECT d.day, $1 - (m.before + d.through - d.public_uploads) AS skip
      FROM (SELECT x.month, x.through - x.public_uploads AS before
        FROM (SELECT month, public_uploads, sum(public_uploads) OVER (ORDER BY month DESC) AS through FROM upload_months) x
        WHERE x.through > $2 ORDER BY x.month DESC LIMIT 1) m
      CROSS JOIN LATERAL (SELECT day, public_uploads, sum(public_uploads) OVER (ORDER BY day DESC) AS through FROM upload_days WHERE day > m.month AND day < m.month || '.') d
      WHERE m.before + d.through > $3 ORDER BY d.day DESC LIMIT 1)
    SELECT u.id AS rid FROM uploads u WHERE u.is_private = 0 AND u.created_at < (SELECT to_char(CAST(day AS date) + 1, 'YYYY-MM-DD') FROM start)
    ORDER BY u.created_at DESC, u.id DESC LIMIT 20 OFFSET coalesce((SELECT skip FROM start), 0)) p
    JOIN uploads u ON u.id = p.rid JOIN users us ON us.id = u.user_id
    ORDER BY u.created_at DESC, u.id DESC
-- 1: 40
-- 2: 40
-- 3: 40
