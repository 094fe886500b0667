-- GET /api/uploads/filtered, two tags that rarely meet, hot (matched whole)
SELECT slug, public_uploads FROM tags WHERE slug = ANY($1)
-- 1: ["cats","dogs"]
