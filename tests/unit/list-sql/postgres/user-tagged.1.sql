-- GET /api/user/{username}/uploads, by name, one tag
SELECT id, username, created_at, public_uploads
    FROM users WHERE lower(username) = lower($1)
-- 1: "alice"
