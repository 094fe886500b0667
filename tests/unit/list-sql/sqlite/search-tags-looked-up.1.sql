-- GET /api/search?q=(cats OR dogs) pets, newest (SQLite: from the rare OR, the common tag looked up)
SELECT slug, public_uploads FROM tags WHERE slug IN (SELECT value FROM json_each(?))
-- 1: "[\"pets\",\"cats\",\"dogs\"]"
