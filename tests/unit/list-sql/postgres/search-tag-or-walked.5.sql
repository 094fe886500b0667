-- GET /api/search?q=(cats OR dogs) pets, newest (pets' links walked, the total from the pairs less the uploads with all three, matched: the triple could not be kept)
SELECT id FROM tags WHERE slug = ANY($1)
-- 1: ["pets","cats","dogs"]
