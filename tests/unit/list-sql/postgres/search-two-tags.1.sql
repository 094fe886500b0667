-- GET /api/search?q=cats dogs, newest (the filtered list's pair)
SELECT slug, public_uploads FROM tags WHERE slug = ANY($1)
-- 1: ["cats","dogs"]
