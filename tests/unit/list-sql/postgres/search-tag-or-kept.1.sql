-- GET /api/search?q=(cats OR dogs) pets, top (pets' links walked, the total from the pairs less the kept triple)
SELECT slug, public_uploads FROM tags WHERE slug = ANY($1)
-- 1: ["pets","cats","dogs"]
