-- GET /api/search?q=(cats OR dogs) pets, newest (pets' links walked, the total from the pairs less the uploads with all three, matched: the triple could not be kept)
SELECT public_uploads FROM tag_triples
    WHERE first_tag_id IN (SELECT id FROM tags WHERE slug IN ($1, $2, $3)) AND second_tag_id IN (SELECT id FROM tags WHERE slug IN ($4, $5, $6)) AND third_tag_id IN (SELECT id FROM tags WHERE slug IN ($7, $8, $9))
-- 1: "pets"
-- 2: "cats"
-- 3: "dogs"
-- 4: "pets"
-- 5: "cats"
-- 6: "dogs"
-- 7: "pets"
-- 8: "cats"
-- 9: "dogs"
