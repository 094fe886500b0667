-- GET /api/search?q=(cats OR dogs) pets, newest (pets' links walked, the total from the pairs less the uploads with all three, matched: the triple could not be kept)
SELECT public_uploads FROM tag_triples
    WHERE first_tag_id IN (SELECT id FROM tags WHERE slug IN (SELECT value FROM json_each(?))) AND second_tag_id IN (SELECT id FROM tags WHERE slug IN (SELECT value FROM json_each(?))) AND third_tag_id IN (SELECT id FROM tags WHERE slug IN (SELECT value FROM json_each(?)))
-- 1: "[\"pets\",\"cats\",\"dogs\"]"
-- 2: "[\"pets\",\"cats\",\"dogs\"]"
-- 3: "[\"pets\",\"cats\",\"dogs\"]"
