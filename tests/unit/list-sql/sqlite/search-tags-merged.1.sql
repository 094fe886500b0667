-- GET /api/search?q=(cats OR dogs) pets -birds, newest (SQLite: the tags' links merged)
SELECT slug, public_uploads FROM tags WHERE slug IN (SELECT value FROM json_each(?))
-- 1: "[\"pets\",\"cats\",\"dogs\",\"birds\"]"
