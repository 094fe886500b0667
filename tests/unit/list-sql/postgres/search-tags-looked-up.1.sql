-- GET /api/search?q=(cats OR dogs) pets, newest (SQLite: from the rare OR, the common tag looked up)
SELECT slug, public_uploads FROM tags WHERE slug = ANY($1)
-- 1: ["pets","cats","dogs"]
