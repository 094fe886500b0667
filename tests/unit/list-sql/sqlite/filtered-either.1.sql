-- GET /api/uploads/filtered, any of two tags, top, page 2 (the tags' pages united; kept counts less the pair's)
SELECT n.slug, t.public_uploads FROM (SELECT slug, tag_id FROM tag_aliases WHERE slug IN (SELECT value FROM json_each(?))
    UNION ALL SELECT slug, id FROM tags WHERE slug IN (SELECT value FROM json_each(?)) AND slug NOT IN (SELECT slug FROM tag_aliases)) n
      JOIN tags t ON t.id = n.tag_id
-- 1: "[\"cats\",\"dogs\"]"
-- 2: "[\"cats\",\"dogs\"]"
