-- GET /api/uploads/filtered, two tags, newest (the rarer tag's links walked)
SELECT slug, public_uploads FROM tags WHERE slug = ANY($1)
-- 1: ["cats","dogs"]
