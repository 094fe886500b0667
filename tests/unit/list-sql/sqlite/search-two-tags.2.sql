-- GET /api/search?q=cats dogs, newest (the filtered list's pair)
WITH named AS MATERIALIZED (SELECT COALESCE((SELECT tag_id FROM tag_aliases WHERE slug = ?), (SELECT id FROM tags WHERE slug = ?)) AS a, COALESCE((SELECT tag_id FROM tag_aliases WHERE slug = ?), (SELECT id FROM tags WHERE slug = ?)) AS b),
    counted AS MATERIALIZED (SELECT CASE WHEN n.a = n.b THEN (SELECT public_uploads AS total FROM tags WHERE id = n.a) ELSE (SELECT coalesce((SELECT public_uploads FROM tag_pairs
    WHERE first_tag_id = min(n.a, n.b) AND second_tag_id = max(n.a, n.b)), 0) AS total) END AS total FROM named n)
SELECT total FROM counted
-- 1: "dogs"
-- 2: "dogs"
-- 3: "cats"
-- 4: "cats"
