-- GET /api/search?q=(cats OR dogs) pets, newest (SQLite: from the rare OR, the common tag looked up)
SELECT n.slug, t.public_uploads FROM (SELECT slug, tag_id FROM tag_aliases WHERE slug IN (SELECT value FROM json_each(?))
    UNION ALL SELECT slug, id FROM tags WHERE slug IN (SELECT value FROM json_each(?)) AND slug NOT IN (SELECT slug FROM tag_aliases)) n
      JOIN tags t ON t.id = n.tag_id
-- 1: "[\"pets\",\"cats\",\"dogs\"]"
-- 2: "[\"pets\",\"cats\",\"dogs\"]"
