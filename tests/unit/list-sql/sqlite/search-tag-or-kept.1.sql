-- GET /api/search?q=(cats OR dogs) pets, top (pets' links walked, the total from the pairs less the kept triple)
SELECT slug, public_uploads FROM tags WHERE slug IN (SELECT value FROM json_each(?))
-- 1: "[\"pets\",\"cats\",\"dogs\"]"
