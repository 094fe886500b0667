-- GET /api/search?q=(cats OR dogs) pets, top (pets' links walked, the total from the pairs less the kept triple)
SELECT public_uploads FROM tag_triples
    WHERE first_tag_id IN (SELECT id FROM tags WHERE slug = ANY($1)) AND second_tag_id IN (SELECT id FROM tags WHERE slug = ANY($2)) AND third_tag_id IN (SELECT id FROM tags WHERE slug = ANY($3))
-- 1: ["pets","cats","dogs"]
-- 2: ["pets","cats","dogs"]
-- 3: ["pets","cats","dogs"]
