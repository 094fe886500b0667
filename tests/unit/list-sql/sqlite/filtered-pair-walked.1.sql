-- GET /api/uploads/filtered, two tags, newest (the rarer tag's links walked)
SELECT slug, public_uploads FROM tags WHERE slug IN (SELECT value FROM json_each(?))
-- 1: "[\"cats\",\"dogs\"]"
