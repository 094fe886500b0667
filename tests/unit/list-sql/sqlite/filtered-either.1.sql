-- GET /api/uploads/filtered, any of two tags, top, page 2 (the tags' pages united; kept counts less the pair's)
SELECT slug, public_uploads FROM tags WHERE slug IN (SELECT value FROM json_each(?))
-- 1: "[\"cats\",\"dogs\"]"
