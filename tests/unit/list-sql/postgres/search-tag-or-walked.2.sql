-- GET /api/search?q=(cats OR dogs) pets, newest (pets' links walked, the total from the pairs less the uploads with all three, matched: the triple could not be kept)
-- run 2 times (values of the first)
SELECT coalesce((SELECT public_uploads FROM tag_pairs
    WHERE first_tag_id = least((SELECT id FROM tags WHERE slug = $1), (SELECT id FROM tags WHERE slug = $2)) AND second_tag_id = greatest((SELECT id FROM tags WHERE slug = $3), (SELECT id FROM tags WHERE slug = $4))), 0) AS total
-- 1: "pets"
-- 2: "cats"
-- 3: "pets"
-- 4: "cats"
