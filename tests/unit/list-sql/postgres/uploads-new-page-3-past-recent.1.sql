-- GET /api/uploads, newest, page 3 past the recent days (PostgreSQL: from the months)
SELECT coalesce(sum(public_uploads), 0) AS n
    FROM (SELECT public_uploads FROM upload_days ORDER BY day DESC LIMIT 32) r
