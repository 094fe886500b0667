-- GET /api/search?q=cats dogs, newest (the filtered list's pair)
SELECT coalesce((SELECT public_uploads FROM tag_pairs
    WHERE first_tag_id = least((SELECT id FROM tags WHERE slug = $1), (SELECT id FROM tags WHERE slug = $2)) AND second_tag_id = greatest((SELECT id FROM tags WHERE slug = $3), (SELECT id FROM tags WHERE slug = $4))), 0) AS total
-- 1: "dogs"
-- 2: "cats"
-- 3: "dogs"
-- 4: "cats"
