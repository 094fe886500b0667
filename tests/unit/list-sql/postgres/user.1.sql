-- GET /api/user/{username}/uploads, by date (the account's kept count)
SELECT id, username, created_at, public_uploads
    FROM users WHERE lower(username) = lower($1)
-- 1: "alice"
