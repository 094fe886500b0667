-- GET /api/uploads/filtered, three tags, one rare (looked up)
SELECT slug, public_uploads FROM tags WHERE slug IN (SELECT value FROM json_each(?))
-- 1: "[\"cats\",\"dogs\",\"birds\"]"
