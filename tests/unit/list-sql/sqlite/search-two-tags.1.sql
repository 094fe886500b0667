-- GET /api/search?q=cats dogs, newest (the filtered list's pair)
SELECT slug, public_uploads FROM tags WHERE slug IN (SELECT value FROM json_each(?))
-- 1: "[\"cats\",\"dogs\"]"
