-- GET /api/search?q=(cats OR dogs) pets, newest (pets' links walked, the total from the pairs less the uploads with all three, matched: the triple could not be kept)
SELECT id FROM tags WHERE slug IN (SELECT value FROM json_each(?))
-- 1: "[\"pets\",\"cats\",\"dogs\"]"
