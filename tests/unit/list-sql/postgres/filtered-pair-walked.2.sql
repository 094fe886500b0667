-- GET /api/uploads/filtered, two tags, newest (the rarer tag's links walked)
WITH named AS MATERIALIZED (SELECT COALESCE((SELECT tag_id FROM tag_aliases WHERE slug = $1), (SELECT id FROM tags WHERE slug = $2)) AS a, COALESCE((SELECT tag_id FROM tag_aliases WHERE slug = $3), (SELECT id FROM tags WHERE slug = $4)) AS b),
    counted AS MATERIALIZED (SELECT CASE WHEN n.a = n.b THEN (SELECT public_uploads AS total FROM tags WHERE id = n.a) ELSE (SELECT coalesce((SELECT public_uploads FROM tag_pairs
    WHERE first_tag_id = least(n.a, n.b) AND second_tag_id = greatest(n.a, n.b)), 0) AS total) END AS total FROM named n)
SELECT total FROM counted
-- 1: "cats"
-- 2: "cats"
-- 3: "dogs"
-- 4: "dogs"
