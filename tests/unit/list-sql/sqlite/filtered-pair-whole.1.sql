-- GET /api/uploads/filtered, two tags that rarely meet, hot (matched whole)
SELECT slug, public_uploads FROM tags WHERE slug IN (SELECT value FROM json_each(?))
-- 1: "[\"cats\",\"dogs\"]"
