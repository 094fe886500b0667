-- GET /api/uploads/filtered, two tags, newest (the rarer tag's links walked)
SELECT coalesce((SELECT public_uploads FROM tag_pairs
    WHERE first_tag_id = min((SELECT id FROM tags WHERE slug = ?), (SELECT id FROM tags WHERE slug = ?)) AND second_tag_id = max((SELECT id FROM tags WHERE slug = ?), (SELECT id FROM tags WHERE slug = ?))), 0) AS total
-- 1: "cats"
-- 2: "dogs"
-- 3: "cats"
-- 4: "dogs"
