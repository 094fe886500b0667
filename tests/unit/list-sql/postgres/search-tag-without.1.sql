-- GET /api/search?q=cats -dogs, newest (the tag's links walked; its kept count less the pair's)
SELECT slug, public_uploads FROM tags WHERE slug = ANY($1)
-- 1: ["cats"]
