-- GET /api/user/{username}/uploads, by votes, narrowed
SELECT id, username, created_at, public_uploads
    FROM users WHERE lower(username) = lower(?)
-- 1: "alice"
