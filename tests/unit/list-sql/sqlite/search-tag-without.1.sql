-- GET /api/search?q=cats -dogs, newest (the tag's links walked; its kept count less the pair's)
SELECT slug, public_uploads FROM tags WHERE slug IN (SELECT value FROM json_each(?))
-- 1: "[\"cats\"]"
