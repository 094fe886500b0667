-- GET /api/search?q=cats dogs, newest (the filtered list's pair)
SELECT coalesce((SELECT public_uploads FROM tag_pairs
    WHERE first_tag_id = min((SELECT id FROM tags WHERE slug = ?), (SELECT id FROM tags WHERE slug = ?)) AND second_tag_id = max((SELECT id FROM tags WHERE slug = ?), (SELECT id FROM tags WHERE slug = ?))), 0) AS total
-- 1: "dogs"
-- 2: "cats"
-- 3: "dogs"
-- 4: "cats"
